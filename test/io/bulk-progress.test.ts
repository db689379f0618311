// The bulk run's progress bar (src/io/bulk-output.ts) while the server holds the run back: the
// wait takes the place of the rate and the time left, and the line still fits the terminal.
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { startBulkProgress } from '../../src/io/bulk-output.js'

// A terminal on stderr of `width` columns; what was drawn on it, frame by frame.
async function bar(width: number, total: number) {
  let drawn = ''
  const err = Object.assign(new PassThrough(), { isTTY: true, columns: width })
  err.on('data', (chunk: Buffer) => (drawn += chunk.toString()))
  const io = { err, stderrIsTTY: true, stdoutIsTTY: true, stdoutIsPipe: false, stderrWidth: width }
  const progress = (await startBulkProgress(io as never, { quiet: false }, total, 'rows sent'))!
  const frames = () =>
    drawn
      // eslint-disable-next-line no-control-regex
      .split(/\r|\n|\u001b\[\??[0-9;]*[A-Za-z]|\u001b[78]/)
      .filter((frame) => frame.trim() !== '')
  return { progress, frames }
}

describe('the progress bar while the server asks the run to slow down', () => {
  it('says how long the run waits, in place of the rate and the time left', async () => {
    const { progress, frames } = await bar(80, 5000)
    progress.tick()
    progress.waiting(1000)
    progress.stop()
    expect(frames().at(-1)).toMatch(
      /^1\/5,000 rows sent \| waiting 1 s: the server asked to slow down$/,
    )
  })

  it('a wait under a second in tenths; the rate and ETA once it sends again', async () => {
    const short = await bar(80, 5000)
    short.progress.waiting(600)
    short.progress.stop()
    expect(short.frames().at(-1)).toContain('waiting 0.6 s: the server asked to slow down')
    const { progress, frames } = await bar(80, 5000)
    progress.waiting(600)
    progress.waiting(undefined)
    progress.stop()
    expect(frames().at(-1)).toMatch(/0\/5,000 rows sent \| [\d,]+\/s \| ETA/)
  })

  it('leaves out the bar where it and the wait do not both fit', async () => {
    for (const width of [60, 80, 100]) {
      const { progress, frames } = await bar(width, 1_000_000)
      progress.waiting(60_000)
      progress.stop()
      for (const frame of frames()) expect(frame.length).toBeLessThanOrEqual(width)
      expect(frames().at(-1)).toContain('waiting 60 s')
    }
    const wide = await bar(120, 5000)
    wide.progress.waiting(60_000)
    wide.progress.stop()
    expect(wide.frames().at(-1)).toMatch(/^░{24} 0\/5,000 rows sent \| waiting 60 s: the server/)
  })
})
