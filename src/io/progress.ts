// A one-line progress note on stderr, only on a TTY, never when stdout is a pipe (its reader may
// draw on the same terminal: `| less`) and never with -q: scripts see nothing.
import type { IO } from './streams.js'

export type Progress = { update(text: string): void; stop(): void }

export function startProgress(
  io: Pick<IO, 'err' | 'stderrIsTTY' | 'stdoutIsPipe' | 'stderrWidth'>,
  opts: { quiet: boolean },
): Progress | undefined {
  if (!io.stderrIsTTY || io.stdoutIsPipe || opts.quiet) return undefined
  let shown = false
  return {
    update(text) {
      io.err.write(`\r\u001b[2K${text}`)
      shown = true
    },
    stop() {
      if (shown) io.err.write('\r\u001b[2K')
      shown = false
    },
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
