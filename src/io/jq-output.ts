// --jq on json and ndjson output: records handed to the jq program in batches as they arrive,
// or as the one merged array of a list.
import { CliError, ExitCode } from '../errors.js'
import { JQ_OUT_OF_MEMORY } from './jq.js'
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

// The most JSON text the merged array of a list may hold (UTF-8 bytes, as jq reads it). jq-wasm
// has 256 MiB, in which a parsed record takes several times its text, the more the smaller its
// fields: an array of full member records (10 fields, 240 to 290 bytes each) runs jq out of
// memory past 41 to 46 MiB (about 170,000 records), of chambers past 40 MiB, of events past 50
// MiB, of `--fields id,email` past 26 MiB, of `--fields id` past 10 MiB; the filter matters
// little (`sort_by`, `group_by` within 5%), nor does Node (22, 24 and 26 alike). Past this
// bound the list is not gathered further; a smaller one that still runs jq out of memory says so.
export const MAX_JQ_DOCUMENT = 24 * 1024 * 1024
const LIST_WAY_OUT =
  'filter it record by record with -o ndjson --jq, or narrow it with --limit or filters'

// Once over the document, as `--json | jq` would: the records of a list as one merged array,
// which is held whole, so within MAX_JQ_DOCUMENT.
export async function filterWhole(
  io: OutputIO,
  texts: AsyncIterable<readonly string[]>,
  jq: JqProgram,
): Promise<number> {
  const all: string[] = []
  // `[`, `]`, and a comma after every record but the last.
  let bytes = 1
  for await (const batch of texts) {
    for (const text of batch) {
      bytes += Buffer.byteLength(text) + 1
      if (bytes > MAX_JQ_DOCUMENT) {
        throw new CliError(
          `--jq: the list is larger than ${MAX_JQ_DOCUMENT / 1024 / 1024} MiB of JSON, the most handed to jq as one array; ${LIST_WAY_OUT}`,
          ExitCode.failure,
          'too_large',
        )
      }
      all.push(text)
    }
  }
  try {
    await writeJq(io, jq, `[${all.join(',')}]`)
  } catch (error) {
    if (!(error instanceof CliError) || error.code !== JQ_OUT_OF_MEMORY) throw error
    throw new CliError(`${error.message}; ${LIST_WAY_OUT}`, error.exitCode, error.code)
  }
  return all.length
}
