// Writes records in the chosen output format (contract §1, §4). Every format is written here and
// nowhere else. Heavy modules (string-width, csv-stringify) are loaded only by the format
// that needs them, so this module is cheap to import.
//
// Decisions worth knowing:
// - Streaming: every format writes each record, or each batch of records (a list's page), as it
//   arrives and waits for the stream to drain, so `--all` over any number of pages keeps memory
//   flat. A table settles its widths on the first batch (table.ts).
// - Nothing reaches stdout before the first record or the end of the list, so a list that fails
//   on its first page leaves stdout empty. A list that fails part-way stops without closing the
//   JSON array: a truncated result must not parse as a complete one.
// - Empty list: json prints `[]`, csv prints the header row alone (the columns are still known),
//   tsv and ndjson print nothing, table prints nothing and returns 0 so the caller may put a
//   "no results" note on stderr.
// - CSV is RFC 4180 to the letter: CRLF after every record, the header included, and fields with
//   a comma, quote, CR or LF quoted with quotes doubled. Every CSV reader accepts CRLF. A cell a
//   spreadsheet would run as a formula gets a leading `'` (csv-formula.ts), in a file or not.
// - On a terminal, text from the server is never written raw (terminal-text.ts): json and
//   ndjson write the characters it escapes as JSON escapes (the same JSON), tsv and csv show
//   them escaped as a table does (a line break in a cell as `\n`, so a record stays one line).
//   To a pipe or a file every format is written byte for byte as it is.
import type { Writable } from 'node:stream'
import type { Column } from '../types/columns.js'
import { painter } from './color.js'
import type { OutputFormat } from './format.js'
import type { JqProgram } from './jq.js'
import type { IO } from './streams.js'
import type { OutputRecord } from './values.js'
import { escapeForTerminal, escapeJsonForTerminal } from './terminal-text.js'
import { cellText, escapeTsv, getPath, pickFields } from './values.js'
import { writeNote } from './wrap.js'

export { getPath } from './values.js'
export type { OutputRecord } from './values.js'

export type Records = AsyncIterable<OutputRecord> | Iterable<OutputRecord>
// Records as they arrive in batches (a list's pages): each batch is written at once.
export type Batches = AsyncIterable<readonly OutputRecord[]>

export type OutputOptions = {
  format: OutputFormat
  // The columns of table, tsv and csv, from the resource's descriptor (those --fields picked).
  columns: readonly Column[]
  // --fields: picks the keys of json/ndjson records; a table shows every column picked.
  fields?: readonly string[]
  color: boolean
  // Terminal columns a table must fit; defaults to io.stdoutWidth, then DEFAULT_WIDTH.
  width?: number
  // --wide: a table keeps every column whole, whatever the width.
  wide?: boolean
  // -q: no note on stderr about columns left out of a table.
  quiet?: boolean
  // A record view's fields in this order (the rest follow as the record has them), each shown as
  // its column is in a table (a date-time to the second); the table's columns when not given.
  order?: readonly Column[]
  // A record's lists of records shown as tables under headings, with their columns (--include).
  sections?: Readonly<Record<string, readonly Column[]>>
  // --jq: json and ndjson records go through the filter instead of being printed.
  jq?: JqProgram
}

export type OutputIO = Pick<
  IO,
  'out' | 'err' | 'stdoutIsTTY' | 'stdoutWidth' | 'stderrWidth' | 'accessible'
>

// What a terminal usually has when it does not say (not a TTY, but -o table asked for).
export const DEFAULT_WIDTH = 100

export async function writeList(
  io: OutputIO,
  records: Records,
  opts: OutputOptions,
): Promise<number> {
  return writeBatches(io, batchesOf(records), opts)
}

export async function writeBatches(
  io: OutputIO,
  batches: Batches,
  opts: OutputOptions,
): Promise<number> {
  const columns = opts.columns.map((column) => column.field)
  if (opts.jq && (opts.format === 'json' || opts.format === 'ndjson')) {
    const jq = opts.jq
    const texts = mapBatches(batches, (record) => JSON.stringify(project(record, opts.fields)))
    if (opts.format === 'ndjson') return filterEach(io, texts, jq)
    // The one merged array, as jq would get it from `--json | jq`: the whole list is held.
    const all: string[] = []
    for await (const batch of texts) all.push(...batch)
    await writeJq(io, jq, `[${all.join(',')}]`)
    return all.length
  }
  const terminal = io.stdoutIsTTY
  switch (opts.format) {
    case 'json': {
      const paint = jsonPainter(io, opts)
      // Byte-for-byte what JSON.stringify(array, null, terminal ? 2 : 0) would print (escaped for
      // a terminal on one).
      return stream(
        io.out,
        batches,
        (record, index) => {
          const json = paint(toJson(project(record, opts.fields), terminal))
          return `${index === 0 ? '[' : ','}${terminal ? `\n  ${json.replace(/\n/g, '\n  ')}` : json}`
        },
        (count) => (count === 0 ? '[]\n' : terminal ? '\n]\n' : ']\n'),
      )
    }
    case 'ndjson':
      return stream(
        io.out,
        batches,
        (record) => `${toJson(project(record, opts.fields), false, terminal)}\n`,
      )
    case 'tsv':
      return stream(io.out, batches, (record) => tsvRow(record, columns, terminal))
    case 'csv': {
      const csv = await csvWriter(columns, terminal)
      return stream(
        io.out,
        batches,
        (record, index) => (index === 0 ? csv.header : '') + csv.row(record),
        (count) => (count === 0 ? csv.header : ''),
      )
    }
    case 'table': {
      const { startTable } = await import('./table.js')
      // Accessible mode: a block of `key: value` lines per record.
      const { startBlocks } = io.accessible ? await import('./blocks.js') : {}
      let table: Awaited<ReturnType<typeof startTable>> | undefined
      let count = 0
      for await (const batch of batches) {
        if (batch.length === 0) continue
        table ??=
          startBlocks?.(opts.columns) ??
          (await startTable(opts.columns, batch, {
            ...tableOptions(io, opts),
            // Columns the user picked with --fields are all shown.
            mayDrop: opts.fields === undefined,
          }))
        await put(io.out, table.render(batch))
        count += batch.length
        // A reader that is gone (a pager quit) wants no more pages.
        if (io.out.destroyed) break
      }
      if (table) noteDropped(io, table.dropped, opts)
      return count
    }
  }
}

// A single record (get, create, a single add).
export async function writeRecord(
  io: OutputIO,
  record: OutputRecord,
  opts: OutputOptions,
): Promise<void> {
  const columns = opts.columns.map((column) => column.field)
  if (opts.jq && (opts.format === 'json' || opts.format === 'ndjson')) {
    return writeJq(io, opts.jq, JSON.stringify(project(record, opts.fields)))
  }
  const terminal = io.stdoutIsTTY
  switch (opts.format) {
    case 'json': {
      const paint = jsonPainter(io, opts)
      return put(io.out, `${paint(toJson(project(record, opts.fields), terminal))}\n`)
    }
    case 'ndjson':
      return put(io.out, `${toJson(project(record, opts.fields), false, terminal)}\n`)
    case 'tsv':
      return put(io.out, tsvRow(record, columns, terminal))
    case 'csv': {
      const csv = await csvWriter(columns, terminal)
      return put(io.out, csv.header + csv.row(record))
    }
    case 'table': {
      const { renderRecord } = await import('./record-view.js')
      const view = await renderRecord(record, {
        ...tableOptions(io, opts),
        order: opts.order ?? opts.columns,
        fields: opts.fields,
        sections: opts.sections,
        blocks: io.accessible,
      })
      await put(io.out, view.text)
      return noteDropped(io, view.dropped, opts)
    }
  }
}

// A JSON document that is not a record (a report, a request body, a raw answer): pretty on a
// terminal, compact in a pipe, or through --jq.
export async function writeJson(
  io: OutputIO,
  value: unknown,
  opts: { jq?: JqProgram } = {},
): Promise<void> {
  if (opts.jq) return writeJq(io, opts.jq, JSON.stringify(value))
  return put(io.out, `${toJson(value, io.stdoutIsTTY)}\n`)
}

function project(record: OutputRecord, fields: readonly string[] | undefined): OutputRecord {
  return fields ? pickFields(record, fields) : record
}

// JSON on a terminal in colour, as gh and jq show it: keys bold blue, strings green, numbers cyan,
// true, false and null yellow. Never in a pipe (not even with FORCE_COLOR: a machine format stays
// what it is) and never without colour (NO_COLOR, --no-color).
const JSON_TOKEN =
  /("(?:[^"\\]|\\.)*")(\s*:)?|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\b(?:true|false|null)\b/g

function jsonPainter(io: OutputIO, opts: Pick<OutputOptions, 'color'>): (json: string) => string {
  if (!io.stdoutIsTTY || !opts.color) return (json) => json
  const paint = painter(true)
  return (json) =>
    json.replace(JSON_TOKEN, (token: string, text?: string, colon?: string) => {
      if (text === undefined) return paint(/^[tfn]/.test(token) ? 'yellow' : 'cyan', token)
      return colon === undefined ? paint('green', text) : `${paint(['bold', 'blue'], text)}${colon}`
    })
}

// Pretty JSON is for a terminal, so it is escaped for one; compact JSON only when asked.
function toJson(value: unknown, pretty = false, terminal = pretty): string {
  const json = JSON.stringify(value, null, pretty ? 2 : undefined)
  return terminal ? escapeJsonForTerminal(json) : json
}

function tsvRow(record: OutputRecord, columns: readonly string[], terminal: boolean): string {
  const cell = (column: string) => {
    const text = escapeTsv(cellText(getPath(record, column)))
    return terminal ? escapeForTerminal(text) : text
  }
  return `${columns.map(cell).join('\t')}\n`
}

// With CRLF records csv-stringify quotes only fields holding a CRLF; any CR or LF needs quotes.
const CSV_OPTIONS = { record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const

async function csvWriter(columns: readonly string[], terminal: boolean) {
  const [{ stringify }, { guardFormula }] = await Promise.all([
    import('csv-stringify/sync'),
    import('./csv-formula.js'),
  ])
  const shown = (text: string) => (terminal ? escapeForTerminal(text) : text)
  const cell = (record: OutputRecord, column: string) =>
    shown(guardFormula(cellText(getPath(record, column))))
  return {
    header: stringify([columns.map(shown)], CSV_OPTIONS),
    // Cells are turned into text first: csv-stringify's own casts would write booleans as 1/''.
    row: (record: OutputRecord) =>
      stringify([columns.map((column) => cell(record, column))], CSV_OPTIONS),
  }
}

// Said once, under the table: which columns did not fit and how to see them.
function noteDropped(io: OutputIO, dropped: readonly string[], opts: OutputOptions): void {
  if (dropped.length === 0 || opts.quiet) return
  writeNote(
    io,
    `Not shown to fit the terminal: ${escapeForTerminal(dropped.join(', '))}. Use --wide for every column, or --fields.`,
  )
}

function tableOptions(io: OutputIO, opts: OutputOptions) {
  const width = opts.wide ? Infinity : (opts.width ?? io.stdoutWidth ?? DEFAULT_WIDTH)
  return { color: opts.color, width }
}

// `input`: JSON text, handed to jq as it is (numbers keep every digit they came with).
export async function writeJq(io: OutputIO, jq: JqProgram, input: string): Promise<void> {
  const { lines, stderr } = jq.run(input, io.stdoutIsTTY)
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
async function filterEach(
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

// Records one by one are batches of one; a list in memory is one batch.
export async function* batchesOf(records: Records): Batches {
  if (Symbol.asyncIterator in records) {
    for await (const record of records) yield [record]
  } else {
    const all = [...records]
    if (all.length > 0) yield all
  }
}

async function* mapBatches<T>(
  batches: Batches,
  map: (record: OutputRecord) => T,
): AsyncIterable<T[]> {
  for await (const batch of batches) yield batch.map(map)
}

async function stream(
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
