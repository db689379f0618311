// Runs the one-file bundle (dist/chamberctl.cjs, or the copy a single executable carries) with a
// V8 code cache written AFTER the first run: Node's own compile cache keeps a module's code as
// compiled before it runs, so it misses the functions a command calls (most of undici's and
// commander's), which every later process would compile again. This one is taken at exit, with
// them in it. Used by the npm bin (launch.ts) and by the single executables built for other
// platforms than the build machine's (sea-main.ts), which cannot carry a snapshot.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import vm from 'node:vm'
import { cacheDir } from '../config/dir.js'

export type Bundle = {
  // The bundle's text, and the file name its stack frames (and source map) go by.
  source: string
  filename: string
  // Set by the build: a digest of the bundle, so a new version never reads an old cache.
  hash: string
  // What the bundle's require() resolves against (its own directory in the npm package).
  require: NodeJS.Require
}

// The exports of the bundle (src/cli/main.ts).
export type BundleExports = { run(): Promise<void> }

// The cache belongs to one bundle on one V8: a cache made by another is rejected by V8 anyway,
// but would be rewritten on every run by two Node versions taking turns.
export function cacheFile(hash: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(
    cacheDir(env),
    'v8',
    `chamberctl-${hash}-node${process.versions.node}-${process.arch}.cache`,
  )
}

export function runBundle(bundle: Bundle): BundleExports {
  const file = cacheFile(bundle.hash)
  const cachedData = readCache(file)
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
  if (cachedData === undefined || script.cachedDataRejected === true) {
    process.once('exit', () => writeCache(file, script.createCachedData()))
  }
  const module = { exports: {} as BundleExports }
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void
  wrapper(module.exports, bundle.require, module, bundle.filename, path.dirname(bundle.filename))
  return module.exports
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file)
  } catch {
    return undefined
  }
}

// Atomic (a file beside it, renamed over), so that two runs at once never read half a cache; a
// cache that cannot be written (read-only home) only costs speed.
function writeCache(file: string, data: Buffer): void {
  const temporary = `${file}.${process.pid}.tmp`
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
    writeFileSync(temporary, data, { mode: 0o600 })
    renameSync(temporary, file)
  } catch {
    rmSync(temporary, { force: true })
  }
}
