// A one-line progress note on stderr, only on a TTY and never with -q: scripts see nothing.
import type { IO } from './streams.js'

export type Progress = { update(text: string): void; stop(): void }

export function startProgress(
  io: Pick<IO, 'err' | 'stderrIsTTY'>,
  opts: { quiet: boolean },
): Progress | undefined {
  if (!io.stderrIsTTY || opts.quiet) return undefined
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
