import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import type { Stats } from 'node:fs'
import { userInfo } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'

afterEach(() => void vi.unstubAllEnvs())
import { CliError } from '../../src/errors.js'
import {
  CACHE_DIR,
  cacheDir,
  configDir,
  ensureConfigDir,
  ensurePrivateDir,
  privacyProblem,
  writePrivateFile,
} from '../../src/config/dir.js'
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

  // os.homedir() returns the process's HOME as it is, empty too.
  it('treats an empty HOME as unset: the home the system knows, never the current directory', () => {
    vi.stubEnv('HOME', '')
    const home = userInfo().homedir
    expect(configDir({ HOME: '' }, 'linux')).toBe(path.posix.join(home, '.config', 'chamberctl'))
    expect(cacheDir({ HOME: '' }, 'linux')).toBe(path.posix.join(home, '.cache', 'chamberctl'))
    expect(configDir({ HOME: '' }, 'darwin')).toBe(
      path.posix.join(home, 'Library', 'Application Support', 'chamberctl'),
    )
  })

  it('refuses a relative HOME', () => {
    expect(() => configDir({ HOME: 'relative' }, 'linux')).toThrow(
      'HOME is not an absolute path ("relative"): set HOME, or CHAMBERCTL_CONFIG_DIR',
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
    expect(() => ensureConfigDir(file)).toThrow(
      `the config directory ${file} is not a directory: move that file away, or set CHAMBERCTL_CONFIG_DIR to another directory`,
    )
  })

  it('reports a file where a parent should be, naming it', () => {
    const file = path.join(tempDir(), 'file')
    writeFileSync(file, '')
    const dir = path.join(file, 'chamberctl', 'journals')
    expect(() => ensureConfigDir(dir)).toThrow(
      `the config directory ${dir} is not a directory (${file} is not): move that file away, or set CHAMBERCTL_CONFIG_DIR to another directory`,
    )
  })

  it('refuses a directory others can write to, naming the fix', () => {
    const dir = path.join(tempDir(), 'chamberctl')
    mkdirSync(dir)
    for (const mode of [0o770, 0o702, 0o777]) {
      chmodSync(dir, mode)
      expect(() => ensureConfigDir(dir)).toThrow(
        `refusing the config directory ${dir}: others can write to it (mode 0${mode.toString(8)}); run \`chmod 700 ${dir}\``,
      )
      expect(modeOf(dir)).toBe(mode)
    }
    chmodSync(dir, 0o1777)
    expect(() => ensurePrivateDir(dir, CACHE_DIR)).toThrow(
      `refusing the cache directory ${dir}: others can write to it`,
    )
  })

  // Run as root, which may chown: a directory of nobody's is refused by root too, as ssh does.
  it.runIf(process.getuid?.() === 0)('refuses a directory of another user', () => {
    const dir = path.join(tempDir(), 'chamberctl')
    mkdirSync(dir, { mode: 0o700 })
    chownSync(dir, 65534, 65534)
    expect(() => ensureConfigDir(dir)).toThrow(
      `refusing the config directory ${dir}: it belongs to uid 65534, not to you (uid 0); use a directory of your own (set CHAMBERCTL_CONFIG_DIR), or have it given to you (chown)`,
    )
  })

  // Node's recursive mkdir retries forever there (and a process in it ignores SIGTERM).
  it.runIf(process.platform === 'linux')(
    'gives up at once where mkdir cannot create (/proc)',
    () => {
      const dir = path.join('/proc', `chamberctl-${process.pid}`, 'config')
      expect(() => ensureConfigDir(dir)).toThrow(
        `cannot create the config directory ${dir} (${path.dirname(dir)}: no such file or directory (ENOENT)): create it yourself (\`mkdir -m 700 ${dir}\`), or set CHAMBERCTL_CONFIG_DIR to a directory you can write`,
      )
    },
  )

  it('leaves modes alone on Windows', () => {
    const dir = path.join(tempDir(), 'chamberctl')
    mkdirSync(dir)
    chmodSync(dir, 0o755)
    ensureConfigDir(dir, 'win32')
    expect(modeOf(dir)).toBe(0o755)
  })
})

describe('privacyProblem', () => {
  // Every file on Windows reads as 0666, owned by uid 0: there is nothing to tell there.
  it('finds none on Windows', () => {
    expect(privacyProblem({ mode: 0o100666, uid: 0 } as Stats, 'win32')).toBeUndefined()
  })

  it.runIf(POSIX)('names another owner, then write access of others', () => {
    const uid = process.getuid!()
    expect(privacyProblem({ mode: 0o100600, uid: uid + 1 } as Stats, 'linux')).toBe('owner')
    expect(privacyProblem({ mode: 0o100620, uid } as Stats, 'linux')).toBe('writable')
    expect(privacyProblem({ mode: 0o100644, uid } as Stats, 'linux')).toBeUndefined()
  })
})

describe.runIf(POSIX)('writePrivateFile', () => {
  const tempDir = useTempDirs()

  it('writes a 0600 file whatever the umask, leaving nothing beside it', () => {
    const dir = tempDir()
    const file = path.join(dir, 'config.json')
    const umask = process.umask(0o277)
    try {
      writePrivateFile(file, 'one')
      writePrivateFile(file, 'two')
    } finally {
      process.umask(umask)
    }
    expect(readFileSync(file, 'utf8')).toBe('two')
    expect(modeOf(file)).toBe(0o600)
    expect(readdirSync(dir)).toEqual(['config.json'])
  })

  // Where nothing can be written, whoever the user is (root included).
  it.runIf(process.platform === 'linux')('says what it could not write, and what to fix', () => {
    const file = path.join('/proc', `chamberctl-${process.pid}.json`)
    expect(() => writePrivateFile(file, 'x')).toThrow(
      new RegExp(`^cannot write ${file}: .*; /proc must be a directory you can write$`),
    )
  })

  it('refuses a symbolic link, leaving the file it points to as it was', () => {
    const dir = tempDir()
    const target = path.join(tempDir(), 'theirs.json')
    writeFileSync(target, 'theirs', { mode: 0o644 })
    const file = path.join(dir, 'config.json')
    symlinkSync(target, file)
    expect(() => writePrivateFile(file, 'secret')).toThrow(
      `refusing to write ${file}: it is a symbolic link, and chamberctl writes no file through one; replace it with a regular file`,
    )
    expect(readFileSync(target, 'utf8')).toBe('theirs')
    expect(modeOf(target)).toBe(0o644)
    expect(lstatSync(file).isSymbolicLink()).toBe(true)
    expect(readdirSync(dir)).toEqual(['config.json'])
  })
})
