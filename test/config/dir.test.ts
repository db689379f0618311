import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CliError } from '../../src/errors.js'
import { cacheDir, configDir, ensureConfigDir } from '../../src/config/dir.js'
import { POSIX, modeOf, useTempDirs } from './helpers.js'

describe('configDir', () => {
  it('prefers CHAMBERCTL_CONFIG_DIR on every platform', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      const env = { CHAMBERCTL_CONFIG_DIR: '/srv/ctl', HOME: '/home/ada', APPDATA: 'C:\\AppData' }
      expect(configDir(env, platform)).toBe('/srv/ctl')
    }
  })

  it('ignores an empty CHAMBERCTL_CONFIG_DIR', () => {
    expect(configDir({ CHAMBERCTL_CONFIG_DIR: '', HOME: '/home/ada' }, 'linux')).toBe(
      '/home/ada/.config/chamberctl',
    )
  })

  it('uses XDG_CONFIG_HOME on Linux', () => {
    const env = { XDG_CONFIG_HOME: '/xdg', HOME: '/home/ada' }
    expect(configDir(env, 'linux')).toBe('/xdg/chamberctl')
  })

  it('falls back to ~/.config when XDG_CONFIG_HOME is unset, empty or relative', () => {
    for (const xdg of [undefined, '', 'relative/dir']) {
      expect(configDir({ XDG_CONFIG_HOME: xdg, HOME: '/home/ada' }, 'linux')).toBe(
        '/home/ada/.config/chamberctl',
      )
    }
  })

  it('follows the XDG rule on other Unix systems', () => {
    expect(configDir({ XDG_CONFIG_HOME: '/xdg', HOME: '/home/ada' }, 'freebsd')).toBe(
      '/xdg/chamberctl',
    )
  })

  it('uses Application Support on macOS, whatever XDG says', () => {
    expect(configDir({ HOME: '/Users/ada', XDG_CONFIG_HOME: '/xdg' }, 'darwin')).toBe(
      '/Users/ada/Library/Application Support/chamberctl',
    )
  })

  it('uses %APPDATA% on Windows', () => {
    expect(configDir({ APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, 'win32')).toBe(
      'C:\\Users\\ada\\AppData\\Roaming\\chamberctl',
    )
  })

  it('derives the roaming directory from %USERPROFILE% without %APPDATA%', () => {
    expect(configDir({ USERPROFILE: 'C:\\Users\\ada' }, 'win32')).toBe(
      'C:\\Users\\ada\\AppData\\Roaming\\chamberctl',
    )
  })

  it('defaults the platform to the running one', () => {
    expect(configDir({ CHAMBERCTL_CONFIG_DIR: '/x' })).toBe('/x')
  })
})

describe('cacheDir', () => {
  it('uses XDG_CACHE_HOME on Linux, ignoring CHAMBERCTL_CONFIG_DIR', () => {
    const env = { XDG_CACHE_HOME: '/xdg-cache', HOME: '/home/ada', CHAMBERCTL_CONFIG_DIR: '/srv' }
    expect(cacheDir(env, 'linux')).toBe('/xdg-cache/chamberctl')
  })

  it('falls back to ~/.cache when XDG_CACHE_HOME is unset, empty or relative', () => {
    for (const xdg of [undefined, '', 'relative/dir']) {
      expect(cacheDir({ XDG_CACHE_HOME: xdg, HOME: '/home/ada' }, 'linux')).toBe(
        '/home/ada/.cache/chamberctl',
      )
    }
  })

  it('uses ~/Library/Caches on macOS', () => {
    expect(cacheDir({ XDG_CACHE_HOME: '/xdg', HOME: '/Users/ada' }, 'darwin')).toBe(
      '/Users/ada/Library/Caches/chamberctl',
    )
  })

  it('uses %LOCALAPPDATA% on Windows, or derives it from %USERPROFILE%', () => {
    expect(cacheDir({ LOCALAPPDATA: 'C:\\Local' }, 'win32')).toBe('C:\\Local\\chamberctl\\Cache')
    expect(cacheDir({ USERPROFILE: 'C:\\Users\\ada' }, 'win32')).toBe(
      'C:\\Users\\ada\\AppData\\Local\\chamberctl\\Cache',
    )
  })
})

describe.runIf(POSIX)('ensureConfigDir', () => {
  const tempDir = useTempDirs()

  it('creates missing parents and the directory itself with mode 0700', () => {
    const dir = path.join(tempDir(), 'a', 'b', 'chamberctl')
    ensureConfigDir(dir)
    expect(modeOf(dir)).toBe(0o700)
  })

  it('tightens an existing directory that others can read', () => {
    const dir = path.join(tempDir(), 'chamberctl')
    mkdirSync(dir)
    chmodSync(dir, 0o755)
    ensureConfigDir(dir)
    expect(modeOf(dir)).toBe(0o700)
  })

  it('is idempotent', () => {
    const dir = path.join(tempDir(), 'chamberctl')
    ensureConfigDir(dir)
    ensureConfigDir(dir)
    expect(modeOf(dir)).toBe(0o700)
  })

  it('reports a path that is a file', () => {
    const file = path.join(tempDir(), 'chamberctl')
    writeFileSync(file, '')
    expect(() => ensureConfigDir(file)).toThrow(CliError)
    expect(() => ensureConfigDir(file)).toThrow(`config path ${file} is not a directory`)
  })

  it('leaves modes alone on Windows', () => {
    const dir = path.join(tempDir(), 'chamberctl')
    mkdirSync(dir)
    chmodSync(dir, 0o755)
    ensureConfigDir(dir, 'win32')
    expect(modeOf(dir)).toBe(0o755)
  })
})
