// Where chamberctl keeps profiles, tokens and sandbox data (contract §1).
import { chmodSync, mkdirSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'
import { CliError } from '../errors.js'

const APP = 'chamberctl'

// `env` and `platform` are parameters so that every platform's rule can be tested on any host.
export function configDir(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): string {
  const override = nonEmpty(env.CHAMBERCTL_CONFIG_DIR)
  if (override !== undefined) return override

  if (platform === 'win32') {
    const appData =
      nonEmpty(env.APPDATA) ??
      path.win32.join(nonEmpty(env.USERPROFILE) ?? homedir(), 'AppData', 'Roaming')
    return path.win32.join(appData, APP)
  }
  const home = nonEmpty(env.HOME) ?? homedir()
  if (platform === 'darwin') {
    return path.posix.join(home, 'Library', 'Application Support', APP)
  }
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const xdg = nonEmpty(env.XDG_CONFIG_HOME)
  const base =
    xdg !== undefined && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, '.config')
  return path.posix.join(base, APP)
}

// Where chamberctl keeps what can be rebuilt at any time (the V8 code cache): the OS cache
// directory, which backups skip and the OS may clear.
export function cacheDir(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32') {
    const localAppData =
      nonEmpty(env.LOCALAPPDATA) ??
      path.win32.join(nonEmpty(env.USERPROFILE) ?? homedir(), 'AppData', 'Local')
    return path.win32.join(localAppData, APP, 'Cache')
  }
  const home = nonEmpty(env.HOME) ?? homedir()
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Caches', APP)
  const xdg = nonEmpty(env.XDG_CACHE_HOME)
  const base =
    xdg !== undefined && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, '.cache')
  return path.posix.join(base, APP)
}

// Creates `dir` (and its parents) private to the user, and tightens an existing one that others
// can read: it holds client secrets and tokens.
export function ensureConfigDir(dir: string, platform: NodeJS.Platform = process.platform): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new CliError(`config path ${dir} is not a directory`)
    }
    throw new CliError(`cannot create config directory ${dir}: ${describeFsError(error)}`)
  }
  const stats = statSync(dir)
  if (!stats.isDirectory()) throw new CliError(`config path ${dir} is not a directory`)
  // Windows has no POSIX modes; the user's profile directory is already private there.
  if (platform === 'win32' || (stats.mode & 0o077) === 0) return
  try {
    chmodSync(dir, 0o700)
  } catch (error) {
    // A directory we do not own (CHAMBERCTL_CONFIG_DIR pointed at a shared one) cannot be
    // tightened; the files we write in it are 0600 regardless, so this is not worth failing for.
    if ((error as NodeJS.ErrnoException).code === 'EPERM') return
    throw new CliError(`cannot restrict permissions of ${dir}: ${describeFsError(error)}`)
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}

export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (typeof code === 'string') return code
  return error instanceof Error ? error.message : String(error)
}
