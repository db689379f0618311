// The one owner of the process's streams. Commands write through it, never to process.*, so
// that tests can hand them buffers and choose what is a TTY.
import type { Readable, Writable } from 'node:stream'
import { fstatSync } from 'node:fs'
import { isatty } from 'node:tty'
import type { Pager } from './pager.js'
import { ExitCode, SIGNAL_EXIT_CODES, stdoutFailure } from '../errors.js'
import { wrapText } from './wrap.js'

// Why a long run must wind down: a signal, or a stdout that was closed (`| head -1`, EPIPE) or
// cannot be written (`> /dev/full`).
export type StopReason = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'output closed' | 'output failed'

type Signal = keyof typeof SIGNAL_EXIT_CODES
const SIGNALS = Object.keys(SIGNAL_EXIT_CODES) as Signal[]

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
  // The same for stderr, for fitting notes, hints and errors.
  stderrWidth?: number
  // Accessible mode (--accessible, CHAMBERCTL_ACCESSIBLE), for screen readers: nothing redrawn
  // in place (progress as occasional plain lines), choices typed as numbers, tables as
  // `key: value` blocks. Set once the global options are known, as gh keeps it on its IOStreams.
  accessible?: boolean
  // Terminal rows of stdout, when it is one: help that fits is not paged.
  stdoutRows?: number
  // Whether stdout is a pipe (or a socket): its reader may be drawing on the same terminal, so
  // no progress is drawn on stderr then (contract §4). Not a pipe: a terminal, a file.
  stdoutIsPipe?: boolean
  // Starts a pager (io/pager.ts) on the process's terminal; undefined when it cannot. Only the
  // process's own IO has one: an IO built by hand (tests, embedding) never pages.
  startPager?(command: string): Promise<Pager | undefined>
  // Calls `handler` on SIGINT (Ctrl-C), SIGTERM, SIGHUP, and when stdout is closed or fails,
  // until the returned function is called. While a handler is registered, none of these ends
  // the process: the command winds down and exits itself. A second signal ends the process at
  // once, for a wind-down that takes too long. `error` is the stdout error, when there is one.
  onStop(handler: (reason: StopReason, error?: Error) => void): () => void
}

// The handlers of the process's IO, and the one stdout error listener: with no handler, a closed
// stdout ends the process quietly with the exit code it has so far (a list read by `head`), and
// a stdout that fails is one line on stderr and exit 1, never an uncaught error.
const stopHandlers = new Set<(reason: StopReason, error?: Error) => void>()
let watchingStdout = false

function watchStdout(): void {
  if (watchingStdout) return
  watchingStdout = true
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    const reason = error.code === 'EPIPE' ? 'output closed' : 'output failed'
    if (stopHandlers.size > 0) {
      for (const handler of [...stopHandlers]) handler(reason, error)
      return
    }
    if (reason === 'output closed') process.exit(process.exitCode ?? ExitCode.ok)
    process.stderr.write(`${stdoutFailure(error)}\n`)
    process.exit(ExitCode.failure)
  })
}

export function processIO(): IO {
  watchStdout()
  const stderrWidth =
    process.stderr.isTTY === true ? terminalWidth(process.stderr, process.env) : undefined
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
    stdoutWidth:
      process.stdout.isTTY === true ? terminalWidth(process.stdout, process.env) : undefined,
    stderrWidth,
    stdoutRows: process.stdout.isTTY === true ? process.stdout.rows : undefined,
    stdoutIsPipe: isPipe(1),
    async startPager(command) {
      const { spawnPager } = await import('./pager.js')
      return spawnPager(command, process.env)
    },
    onStop(handler) {
      let signalled = false
      const listeners = SIGNALS.map((signal) => {
        const listener = () => {
          if (signalled) {
            const line = 'Interrupted again: stopping now; requests in flight may have gone through'
            process.stderr.write(`\n${wrapText(line, stderrWidth)}\n`)
            process.exit(SIGNAL_EXIT_CODES[signal])
          }
          signalled = true
          handler(signal)
        }
        process.on(signal, listener)
        return [signal, listener] as const
      })
      stopHandlers.add(handler)
      return () => {
        for (const [signal, listener] of listeners) process.off(signal, listener)
        stopHandlers.delete(handler)
      }
    },
  }
}

// The width of a terminal, stdout's or stderr's. One that reports 0 columns (a serial console, a
// pseudo-terminal nobody sized) is taken as COLUMNS, else 80 (contract §4): a table fitted to 0
// showed only the id column.
function terminalWidth({ columns }: { columns?: number }, env: NodeJS.ProcessEnv): number {
  if (columns !== undefined && columns > 0) return columns
  const given = Number(env.COLUMNS)
  return Number.isSafeInteger(given) && given > 0 ? given : 80
}

function isPipe(fd: number): boolean {
  try {
    const stat = fstatSync(fd)
    return stat.isFIFO() || stat.isSocket()
  } catch {
    return false
  }
}
