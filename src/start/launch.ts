// The npm bin's second step (bin/chamberctl.cjs requires it, built into dist/launch.cjs): it
// answers --version itself, before any of the CLI is read, and runs the bundle beside it
// (dist/chamberctl.cjs) through the after-run code cache (code-cache.ts).
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { runBundle } from './code-cache.js'
import { answerVersion } from './version.js'

// Set by the build: a digest of dist/chamberctl.cjs.
declare const __CHAMBERCTL_BUNDLE_HASH__: string

export function launch(): void {
  if (answerVersion(process.argv.slice(2))) return
  const filename = path.join(__dirname, 'chamberctl.cjs')
  const { run } = runBundle({
    // ASCII, checked by the build: latin1 reads it without decoding UTF-8.
    source: readFileSync(filename, 'latin1'),
    filename,
    hash: __CHAMBERCTL_BUNDLE_HASH__,
    // The launcher's own: dist/launch.cjs resolves from the bundle's directory (node:module's
    // createRequire would load two more of Node's modules).
    require,
    args: process.argv.slice(2),
  })
  void run()
}
