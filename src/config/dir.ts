// Where chamberctl keeps profiles, tokens and sandbox data (contract §1), and the rules every
// directory and file it writes there follows: as ssh insists for ~/.ssh, a directory must be the
// user's own and writable by no one else, and no file is written through a symbolic link.
import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs'
import type { Stats } from 'node:fs'
import { homedir, userInfo } from 'node:os'
import path from 'node:path'
import { CliError, describeSystemError } from '../errors.js'

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
  const home = homeOf(env)
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
  const home = homeOf(env)
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Caches', APP)
  const xdg = nonEmpty(env.XDG_CACHE_HOME)
  const base =
    xdg !== undefined && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, '.cache')
  return path.posix.join(base, APP)
}

// An empty HOME is an unset one (os.homedir() would return it as is, and a relative path would
// put secrets in the current directory): the user's home is then the one the system records.
function homeOf(env: NodeJS.ProcessEnv): string {
  const home = nonEmpty(env.HOME) ?? passwdHome()
  if (!path.posix.isAbsolute(home)) {
    throw new CliError(
      `HOME is not an absolute path (${JSON.stringify(home)}): set HOME, or CHAMBERCTL_CONFIG_DIR`,
    )
  }
  return home
}

function passwdHome(): string {
  try {
    return userInfo().homedir
  } catch {
    throw new CliError(
      'HOME is not set and the system knows no home directory for this user: set HOME, or CHAMBERCTL_CONFIG_DIR',
    )
  }
}

// What a directory is for, in errors: its name and the variable that moves it elsewhere.
export type DirRole = { name: string; variable: string }
export const CONFIG_DIR: DirRole = { name: 'config directory', variable: 'CHAMBERCTL_CONFIG_DIR' }
export const CACHE_DIR: DirRole = { name: 'cache directory', variable: 'XDG_CACHE_HOME' }

// Creates the config directory `dir` (and its parents) private to the user, or checks an
// existing one (see ensurePrivateDir).
export function ensureConfigDir(dir: string, platform: NodeJS.Platform = process.platform): void {
  ensurePrivateDir(dir, CONFIG_DIR, platform)
}

// Creates `dir` (and its missing parents) with mode 0700, or checks an existing one: it must be
// a directory, the user's own (compared with the process's uid: root refuses a directory of
// nobody's, as ssh does) and writable by no one else; one that others can only read is
// tightened to 0700. Anything else is a one-line CliError naming the path and the fix. An
// existing directory costs one stat.
export function ensurePrivateDir(
  dir: string,
  role: DirRole,
  platform: NodeJS.Platform = process.platform,
): void {
  let stats = statOf(dir, dir, role)
  if (stats === undefined) {
    makeDirs(dir, role)
    stats = statOf(dir, dir, role)
    if (stats === undefined) throw cannotCreate(dir, role, 'it vanished as it was made')
  }
  if (!stats.isDirectory()) throw notADirectory(dir, dir, role)
  // Windows has no POSIX owners or modes; the user's profile directory is private there.
  if (platform === 'win32') return
  const problem = privacyProblem(stats, platform)
  if (problem === 'owner') {
    throw new CliError(
      `refusing the ${role.name} ${dir}: it belongs to uid ${stats.uid}, not to you (uid ${process.getuid!()}); ` +
        `use a directory of your own (set ${role.variable}), or have it given to you (chown)`,
    )
  }
  if (problem === 'writable') {
    throw new CliError(
      `refusing the ${role.name} ${dir}: others can write to it (mode ${octal(stats.mode)}); ` +
        `run \`chmod 700 ${dir}\``,
    )
  }
  if ((stats.mode & 0o077) === 0) return
  try {
    chmodSync(dir, 0o700)
  } catch (error) {
    throw new CliError(
      `cannot restrict the ${role.name} ${dir} to you: ${describeSystemError(error)}; run \`chmod 700 ${dir}\``,
    )
  }
}

// Why a directory or file is not private to the user, if it is not: another owner, or write
// access for the group or the world. Reading the answer costs nothing more than the stat. Windows
// has no POSIX owners or modes (every file there reads as 0666): nothing to tell.
export function privacyProblem(
  stats: Stats,
  platform: NodeJS.Platform = process.platform,
): 'owner' | 'writable' | undefined {
  if (platform === 'win32') return undefined
  if (stats.uid !== process.getuid!()) return 'owner'
  return (stats.mode & 0o022) === 0 ? undefined : 'writable'
}

// mkdir -p, one component at a time and never the same one twice: Node's recursive mkdir retries
// forever where mkdir fails with ENOENT under a parent that exists (/proc), and would hang.
function makeDirs(dir: string, role: DirRole): void {
  const missing: string[] = []
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    const stats = statOf(at, dir, role)
    if (stats !== undefined) {
      if (!stats.isDirectory()) throw notADirectory(at, dir, role)
      break
    }
    missing.unshift(at)
    if (path.dirname(at) === at) break
  }
  for (const part of missing) {
    try {
      mkdirSync(part, { mode: 0o700 })
    } catch (error) {
      // Made by another process at the same moment: fine if it is a directory.
      if (
        (error as NodeJS.ErrnoException).code === 'EEXIST' &&
        statOf(part, dir, role)?.isDirectory()
      )
        continue
      throw cannotCreate(dir, role, `${part}: ${describeSystemError(error)}`)
    }
  }
}

function statOf(at: string, dir: string, role: DirRole): Stats | undefined {
  try {
    return statSync(at, { throwIfNoEntry: false })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') throw notADirectory(at, dir, role)
    throw new CliError(
      `cannot use the ${role.name} ${dir}: ${describeSystemError(error)}; set ${role.variable} to a directory of your own`,
    )
  }
}

function notADirectory(at: string, dir: string, role: DirRole): CliError {
  const part = at === dir ? '' : ` (${at} is not)`
  return new CliError(
    `the ${role.name} ${dir} is not a directory${part}: move that file away, or set ${role.variable} to another directory`,
  )
}

function cannotCreate(dir: string, role: DirRole, why: string): CliError {
  return new CliError(
    `cannot create the ${role.name} ${dir} (${why}): create it yourself (\`mkdir -m 700 ${dir}\`), or set ${role.variable} to a directory you can write`,
  )
}

// Writes `data` to `file` as a new 0600 file: written whole to a file of its own beside it
// (created exclusively, never through a symbolic link), synced, then renamed over the old one,
// so that a reader sees the old file or the new one, never a torn one. A symbolic link at
// `file` is refused rather than replaced: the user put it there.
export function writePrivateFile(file: string, data: string | Buffer): void {
  // node:crypto only when a file is written: the launcher reads this module at every start.
  const random = process.getBuiltinModule('node:crypto').randomBytes(4).toString('hex')
  const temporary = `${file}.${process.pid}.${random}.tmp`
  let fd: number | undefined
  try {
    if (lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) {
      throw new CliError(
        `refusing to write ${file}: it is a symbolic link, and chamberctl writes no file through one; ` +
          'replace it with a regular file',
      )
    }
    fd = openSync(temporary, NEW_FILE, 0o600)
    // The mode open() gives is narrowed by the umask; 0600 is what is promised.
    if (process.platform !== 'win32') fchmodSync(fd, 0o600)
    const bytes = typeof data === 'string' ? Buffer.from(data) : data
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at)
    fsyncSync(fd)
    closeSync(fd)
    fd = undefined
    renameSync(temporary, file)
  } catch (error) {
    if (fd !== undefined) closeSync(fd)
    try {
      rmSync(temporary, { force: true })
    } catch {
      // Never made: the directory refused it.
    }
    if (error instanceof CliError) throw error
    throw new CliError(
      `cannot write ${file}: ${describeSystemError(error)}; ${path.dirname(file)} must be a directory you can write`,
    )
  }
}

// A new file, never an existing one and never through a link (O_NOFOLLOW is 0 on Windows).
export const NEW_FILE =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0)

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}

export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (typeof code === 'string') return code
  return error instanceof Error ? error.message : String(error)
}

// A state file's text, or undefined when there is none; any other failure is one line naming
// `what` (the journal, the lock) and the file.
export function readIfPresent(file: string, what: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new CliError(`cannot read ${what} ${file}: ${describeFsError(error)}`)
  }
}
