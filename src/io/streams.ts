// The one owner of the process's streams. Commands write through it, never to process.*, so
// that tests can hand them buffers and choose what is a TTY.
import type { Readable, Writable } from 'node:stream'

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
  onInterrupt(handler: () => void): () => void
}

export function processIO(): IO {
  return {
    out: process.stdout,
    err: process.stderr,
    in: process.stdin,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    stdinIsTTY: process.stdin.isTTY === true,
    env: process.env,
    stdoutWidth: process.stdout.isTTY === true ? process.stdout.columns : undefined,
    onInterrupt(handler) {
      process.on('SIGINT', handler)
      return () => void process.off('SIGINT', handler)
    },
  }
}
