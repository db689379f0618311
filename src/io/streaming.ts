// Writing records as they arrive: in batches (a list's pages), each written at once, and never
// faster than the reader takes them (back-pressure), so that memory stays flat.
import type { Writable } from 'node:stream'
import type { IO } from './streams.js'
import type { OutputRecord } from './values.js'

export type OutputIO = Pick<
  IO,
  'out' | 'err' | 'stdoutIsTTY' | 'stdoutWidth' | 'stderrWidth' | 'accessible'
>

export type Records = AsyncIterable<OutputRecord> | Iterable<OutputRecord>
// Records as they arrive in batches (a list's pages): each batch is written at once.
export type Batches = AsyncIterable<readonly OutputRecord[]>

// Records one by one are batches of one; a list in memory is one batch.
export async function* batchesOf(records: Records): Batches {
  if (Symbol.asyncIterator in records) {
    for await (const record of records) yield [record]
  } else {
    const all = [...records]
    if (all.length > 0) yield all
  }
}

export async function* mapBatches<T>(
  batches: Batches,
  map: (record: OutputRecord) => T,
): AsyncIterable<T[]> {
  for await (const batch of batches) yield batch.map(map)
}

export async function stream(
  out: Writable,
  batches: Batches,
  render: (record: OutputRecord, index: number) => string,
  end: (count: number) => string = () => '',
): Promise<number> {
  let count = 0
  for await (const batch of batches) {
    let text = ''
    for (const record of batch) text += render(record, count++)
    if (text !== '') await put(out, text)
    // A reader that is gone (a pager quit) wants no more pages.
    if (out.destroyed) break
  }
  const tail = end(count)
  if (tail !== '') await put(out, tail)
  return count
}

// Honours backpressure, so a slow reader of a pipe slows the fetching of pages instead of
// letting output pile up in memory. A stream that closes or fails releases the wait; its error
// is reported by whoever owns the stream.
export function put(out: Writable, chunk: string): Promise<void> {
  if (out.write(chunk) || out.destroyed) return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done)
      out.off('close', done)
      out.off('error', done)
      resolve()
    }
    out.on('drain', done)
    out.on('close', done)
    out.on('error', done)
  })
}
