// Runs the one-file bundle (dist/chamberctl.cjs, or the copy a single executable carries) with a
// V8 code cache written AFTER the first run: Node's own compile cache keeps a module's code as
// compiled before it runs, so it misses the functions a command calls (most of undici's and
// commander's), which every later process would compile again. This one is taken at exit, with
// them in it. Used by the npm bin (launch.ts) and by the single executables built for other
// platforms than the build machine's (sea-main.ts), which cannot carry a snapshot.
//
// One cache per command (its top-level name and the word after it: `chambers list`), not one for
// every command: a cache holds what the run that wrote it compiled, so one written by `login`
// makes a `chambers list` read functions it never calls and compile the ones it does (callgrind:
// 204 million instructions with login's cache, 190 with its own).
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  statSync,
} from 'node:fs'
import path from 'node:path'
import vm from 'node:vm'
import {
  CACHE_DIR,
  cacheDir,
  ensurePrivateDir,
  privacyProblem,
  writePrivateFile,
} from '../config/dir.js'
import { TOP_LEVEL_COMMANDS } from '../cli/commands.js'

export type Bundle = {
  // The bundle's text, and the file name its stack frames (and source map) go by.
  source: string
  filename: string
  // Set by the build: a digest of the bundle, so a new version never reads an old cache.
  hash: string
  // What the bundle's require() resolves against (its own directory in the npm package).
  require: NodeJS.Require
  // The command line's arguments, which name the command and so its cache.
  args: readonly string[]
}

// The exports of the bundle (src/cli/main.ts).
export type BundleExports = { run(): Promise<void> }

// At most this many caches of one bundle on one Node: the words after a command that name a
// cache are bounded by the commands, but a cache directory must not grow without end regardless.
export const MAX_CACHES = 64
// Another bundle's or Node's cache not written for this long is removed when a cache is written:
// a cache is never rewritten, so an old one of a version still in use is only made again.
const STALE_MS = 30 * 24 * 60 * 60 * 1000

const TOP_LEVEL = new Set<string>(TOP_LEVEL_COMMANDS)
const WORD = /^[a-z][a-z-]{0,31}$/

// Which cache a run uses: its command's top-level name and the word after it (`chambers.list`,
// `auth.token`, `__complete.profiles`), the name alone (`login`, `members` before a flag), or
// `other` (no command: `--help`, a typo). The first top-level name anywhere: a global option's
// value before it is not one, or names the same command. With `--jq`, one more: the output runs
// through the filter, which the command's plain run never compiles (callgrind, `chambers list
// --jq .[0].id`: 212 million instructions with the `--json` run's cache, 200 with its own).
export function commandKey(args: readonly string[]): string {
  const key = commandName(args)
  return args.some((arg) => arg === '--jq' || arg.startsWith('--jq=')) ? `${key}.jq` : key
}

function commandName(args: readonly string[]): string {
  const at = args.findIndex((arg) => TOP_LEVEL.has(arg))
  if (at === -1) return 'other'
  const next = args[at + 1]
  return next !== undefined && WORD.test(next) ? `${args[at]}.${next}` : args[at]!
}

// The cache belongs to one bundle on one V8: a cache made by another is rejected by V8 anyway,
// but would be rewritten on every run by two Node versions taking turns.
export function cacheFile(hash: string, key: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(cacheDir(env), 'v8', `${cachePrefix(hash)}${key}.cache`)
}

const cachePrefix = (hash: string) =>
  `chamberctl-${hash}-node${process.versions.node}-${process.arch}-`

export function runBundle(bundle: Bundle): BundleExports {
  const file = cacheFileOf(bundle)
  const cachedData = file === undefined ? undefined : readCache(file)
  // The wrapper's first line is a line of its own, so the bundle's columns (and its source map)
  // stay as they are; lineOffset gives the lines back.
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname) {\n${bundle.source}\n})`,
    {
      filename: bundle.filename,
      lineOffset: -1,
      cachedData,
      // The bundle has no import() of its own; this only keeps one from failing outright.
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    },
  )
  if (file !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
    // Only after a run that succeeded: one that failed may have stopped anywhere (a typo at
    // the first argument), and a typo's words would name a cache of their own.
    process.once('exit', (code) => {
      if (code === 0) writeCache(file, cachePrefix(bundle.hash), script.createCachedData())
    })
  }
  const module = { exports: {} as BundleExports }
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void
  wrapper(module.exports, bundle.require, module, bundle.filename, path.dirname(bundle.filename))
  return module.exports
}

// No cache where there is no home to keep one in.
function cacheFileOf(bundle: Bundle): string | undefined {
  try {
    return cacheFile(bundle.hash, commandKey(bundle.args))
  } catch {
    return undefined
  }
}

// A code cache runs as the user's own code, so only one the user wrote is read: the file itself
// (never a link: O_NOFOLLOW), the user's and writable by no one else, checked on the descriptor
// with the fstat a read makes anyway (the same system calls as readFileSync).
export function readCache(file: string): Buffer | undefined {
  let fd: number
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0))
  } catch {
    return undefined
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile() || privacyProblem(stats) !== undefined) return undefined
    const data = Buffer.allocUnsafe(stats.size)
    let at = 0
    for (let read = 1; at < data.length && read > 0; at += read) {
      read = readSync(fd, data, at, data.length - at, at)
    }
    return at === data.length ? data : undefined
  } catch {
    return undefined
  } finally {
    closeSync(fd)
  }
}

// Atomic (a file beside it, renamed over), so that two runs at once never read half a cache,
// and only into a cache directory that is the user's own (ensurePrivateDir); a cache that cannot
// be written (read-only home, a directory refused) only costs speed, silently. `prefix` names
// this bundle's caches on this Node: no more than MAX_CACHES of them, and the others only while
// they are used.
export function writeCache(file: string, prefix: string, data: Buffer, now = Date.now()): void {
  const dir = path.dirname(file)
  try {
    ensurePrivateDir(path.dirname(dir), CACHE_DIR)
    ensurePrivateDir(dir, CACHE_DIR)
    const names = readdirSync(dir)
    const ours = (name: string) => name.startsWith(prefix) && name.endsWith('.cache')
    if (names.filter(ours).length >= MAX_CACHES) return
    for (const name of names.filter((name) => !ours(name))) {
      const stat = statSync(path.join(dir, name), { throwIfNoEntry: false })
      if (stat && now - stat.mtimeMs > STALE_MS) rmSync(path.join(dir, name), { force: true })
    }
    writePrivateFile(file, data)
  } catch {
    // Nothing was written (writePrivateFile leaves nothing beside the cache).
  }
}
