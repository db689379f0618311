// `chamberctl --version`, answered by each way of starting the CLI (the npm bin's launcher, a
// single executable) before the CLI itself is loaded.
import { writeSync } from 'node:fs'
import { VERSION } from '../cmdutil/version.js'
import { ExitCode, stdoutFailure } from '../errors.js'

// True when `args` ask only for the version, which is then printed. Written to the file
// descriptor, not through process.stdout: making that stream loads more of Node than the rest of
// the answer costs (9 of 93 million instructions for the npm bin, callgrind). Its failures are
// every command's (io/streams.ts): a closed stdout (its reader gone) is quiet, one that cannot be
// written is one line and exit 1.
export function answerVersion(args: string[]): boolean {
  if (args.length !== 1 || (args[0] !== '--version' && args[0] !== '-V')) return false
  const line = Buffer.from(`${VERSION}\n`)
  let written = 0
  try {
    while (written < line.length) written += writeSync(1, line, written)
  } catch (error) {
    // A stdout left non-blocking by whoever shares it, and full: its stream waits for room.
    if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
      process.stdout.on('error', failed).write(line.subarray(written))
    } else failed(error)
  }
  return true
}

function failed(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code === 'EPIPE') return
  process.stderr.write(`${stdoutFailure(error)}\n`)
  process.exitCode = ExitCode.failure
}
