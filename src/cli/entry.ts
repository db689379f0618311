// The bundle's entry, kept to a few lines that import nothing, so that `chamberctl --version`
// loads no other file: the version is answered here, before commander or any command is loaded.
// Every other run turns on Node's compile cache first, so that the modules it loads next are
// read from the cache.

// Set by the build from package.json (src/cmdutil/version.ts is the same value for the rest of the
// code; importing it here would put it in a chunk of its own that --version would have to load).
declare const __CHAMBERCTL_VERSION__: string

export async function run(): Promise<void> {
  const args = process.argv.slice(2)
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    process.stdout.write(`${__CHAMBERCTL_VERSION__}\n`)
    return
  }
  // A cache that cannot be written (read-only home) only costs speed: Node reports it in the
  // return value and carries on.
  const { cacheDir } = await import('../config/dir.js')
  process.getBuiltinModule('node:module').enableCompileCache(cacheDir(process.env))
  const { run: main } = await import('./main.js')
  await main()
}
