// The one owner of the process's streams. Commands write through it, never to process.*, so
// that tests can hand them buffers and choose what is a TTY.
import type { Readable, Writable } from 'node:stream'
import { isatty } from 'node:tty'

// ExitCode.interrupted, without loading the error module for it.
const INTERRUPTED = 130

export type IO = {
  out: Writable
  err: Writable
  in: Readable
  stdoutIsTTY: boolean
  stderrIsTTY: boolean
  stdinIsTTY: boolean
  env: NodeJS.ProcessEnv
  // Terminal columns of stdout, for fitting tables; undefined in a pipe. Optional so that an IO
  // built by hand (tests, embedding) need not invent one.
  stdoutWidth?: number
  // Calls `handler` on Ctrl-C (SIGINT) until the returned function is called. While a handler is
  // registered, Ctrl-C no longer ends the process: the command winds down and exits 130 itself.
  // A second Ctrl-C ends the process at once, for a wind-down that takes too long.
  onInterrupt(handler: () => void): () => void
}

export function processIO(): IO {
  return {
    out: process.stdout,
    err: process.stderr,
    // Made on first use: process.stdin on a file or /dev/null loads Node's file streams and
    // readline (~5 ms), which a command that reads no input should not pay for.
    get in() {
      return process.stdin
    },
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    stdinIsTTY: isatty(0),
    env: process.env,
    stdoutWidth: process.stdout.isTTY === true ? process.stdout.columns : undefined,
    onInterrupt(handler) {
      let interrupted = false
      const listener = () => {
        if (interrupted) {
          process.stderr.write(
            '\nInterrupted again: stopping now; requests in flight may have gone through\n',
          )
          process.exit(INTERRUPTED)
        }
        interrupted = true
        handler()
      }
      process.on('SIGINT', listener)
      return () => void process.off('SIGINT', listener)
    },
  }
}
