// A one-line progress note on stderr, only on a TTY, never when stdout is a pipe (its reader may
// draw on the same terminal: `| less`) and never with -q: scripts see nothing. In accessible mode
// nothing is redrawn in place: the note is a plain line now and then (plainLines).
import { CLEAR_LINE } from './color.js'
import type { IO } from './streams.js'

export type Progress = { update(text: string): void; stop(): void }

export function startProgress(
  io: Pick<IO, 'err' | 'stderrIsTTY' | 'stdoutIsPipe' | 'stderrWidth' | 'accessible'>,
  opts: { quiet: boolean },
  now: () => number = Date.now,
): Progress | undefined {
  if (!io.stderrIsTTY || io.stdoutIsPipe || opts.quiet) return undefined
  if (io.accessible) return { update: plainLines(io, now), stop() {} }
  let shown = false
  return {
    update(text) {
      io.err.write(`${CLEAR_LINE}${text}`)
      shown = true
    },
    stop() {
      if (shown) io.err.write(CLEAR_LINE)
      shown = false
    },
  }
}

// How often a screen reader is told how far a long run has got.
export const PLAIN_EVERY_MS = 5_000

// For a screen reader: progress as a plain line of its own, at most one every PLAIN_EVERY_MS, the
// first after as long (a run that ends sooner says nothing but its result).
export function plainLines(io: Pick<IO, 'err'>, now: () => number): (text: string) => void {
  let last = now()
  return (text) => {
    if (now() - last < PLAIN_EVERY_MS) return
    last = now()
    io.err.write(`${text}\n`)
  }
}

// Passes records (or pages of them) through, clearing the progress note before each is printed,
// so that no record or table border starts after its text (the next update draws the note
// again below).
export async function* clearingProgress<R>(
  records: AsyncIterable<R>,
  progress: Progress | undefined,
): AsyncGenerator<R> {
  for await (const record of records) {
    progress?.stop()
    yield record
  }
}
