// `chamberctl --version`, answered by each way of starting the CLI (the npm bin's launcher, a
// single executable) before the CLI itself is loaded.
import { VERSION } from '../cmdutil/version.js'

// True when `args` ask only for the version, which is then printed.
export function answerVersion(args: string[]): boolean {
  if (args.length !== 1 || (args[0] !== '--version' && args[0] !== '-V')) return false
  process.stdout.write(`${VERSION}\n`)
  return true
}
