// The bundle's entry, kept to a few lines so that `chamberctl --version` loads nothing else: the
// version is answered here, before commander or any command is loaded. Every other run turns on
// Node's compile cache first, so that the modules it loads next are read from the cache.
import module from 'node:module'
import { VERSION } from './version.js'

export async function run(): Promise<void> {
  const args = process.argv.slice(2)
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    process.stdout.write(`${VERSION}\n`)
    return
  }
  // A cache that cannot be written (read-only home) only costs speed: Node reports it in the
  // return value and carries on.
  const { cacheDir } = await import('../config/dir.js')
  module.enableCompileCache(cacheDir(process.env))
  const { run: main } = await import('./main.js')
  await main()
}
