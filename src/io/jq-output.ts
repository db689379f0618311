// --jq on json and ndjson output: records handed to the jq program in batches as they arrive.
import type { JqProgram } from './jq.js'
import { put } from './streaming.js'
import type { OutputIO } from './streaming.js'
import { escapeForTerminal } from './terminal-text.js'

// `input`: JSON text, handed to jq as it is (numbers keep every digit they came with).
export async function writeJq(io: OutputIO, jq: JqProgram, input: string): Promise<void> {
  const { lines, stderr } = await jq.run(input, io.stdoutIsTTY)
  // jq-wasm hands over stdout and stderr apart; the values go first.
  if (lines.length) await put(io.out, `${lines.join('\n')}\n`)
  // jq's messages quote the data they failed on.
  if (stderr) io.err.write(`${escapeForTerminal(stderr, '\n')}\n`)
}

// Highest number of records, and bytes, handed to jq at once; each call costs a compilation.
const JQ_BATCH_RECORDS = 1000
const JQ_BATCH_BYTES = 1 << 20
const WAITING = Symbol('waiting')

// Once per record, as records arrive: the records at hand go to jq together, and a batch is run
// as soon as the next records are not ready (a page is being fetched), so output keeps
// streaming and memory stays flat whatever the number of records.
export async function filterEach(
  io: OutputIO,
  texts: AsyncIterable<readonly string[]>,
  jq: JqProgram,
): Promise<number> {
  const iterator = texts[Symbol.asyncIterator]()
  let batch: string[] = []
  let bytes = 0
  let count = 0
  const flush = async () => {
    if (batch.length === 0) return
    const input = batch.join('\n')
    batch = []
    bytes = 0
    await writeJq(io, jq, input)
  }
  let next = iterator.next()
  for (;;) {
    let ready = await Promise.race([
      next,
      new Promise<typeof WAITING>((r) => setImmediate(r, WAITING)),
    ])
    if (ready === WAITING) {
      await flush()
      ready = await next
    }
    if (ready.done) break
    next = iterator.next()
    for (const text of ready.value) {
      batch.push(text)
      bytes += text.length
      count++
      if (batch.length >= JQ_BATCH_RECORDS || bytes >= JQ_BATCH_BYTES) await flush()
    }
  }
  await flush()
  return count
}
