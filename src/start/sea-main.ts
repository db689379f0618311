// The main script of the single executables built for another platform than the build machine's
// (scripts/release/package.mjs): a V8 snapshot can only be made on the platform that runs it, so
// these carry the bundle as an asset and run it through the code cache they write at their first
// run, in the same cache directory as the npm bin's (code-cache.ts).
import { createRequire } from 'node:module'
import path from 'node:path'
import { getAsset } from 'node:sea'
import { runBundle } from './code-cache.js'
import { answerVersion } from './version.js'

// Set by the packaging: a digest of the bundle asset.
declare const __CHAMBERCTL_BUNDLE_HASH__: string

if (!answerVersion(process.argv.slice(2))) {
  // The name its stack frames go by (the source map is an asset of the same name, src/io/stack.ts).
  const filename = path.join(path.dirname(process.execPath), 'chamberctl.cjs')
  const { run } = runBundle({
    source: getAsset('chamberctl.cjs', 'utf8'),
    filename,
    hash: __CHAMBERCTL_BUNDLE_HASH__,
    require: createRequire(filename),
    args: process.argv.slice(2),
  })
  void run()
}
