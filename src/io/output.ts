// Writes records in the chosen output format (contract §1, §4). Every write of records passes
// here and nowhere else. Heavy modules (string-width, csv-stringify, yaml) are loaded only by
// the format that needs them, so this module is cheap to import.
//
// Decisions worth knowing:
// - Streaming: every format writes each record, or each batch of records (a list's page), as it
//   arrives and waits for the stream to drain, so `--all` over any number of pages keeps memory
//   flat. A table settles its widths on the first batch (table.ts).
// - Nothing reaches stdout before the first record or the end of the list, so a list that fails
//   on its first page leaves stdout empty. A list that fails part-way stops without closing the
//   JSON array: a truncated result must not parse as a complete one (ndjson and yaml cannot
//   show it: the exit code says it).
// - Empty list: json and yaml print `[]` (a yaml stream of documents, nothing), csv prints the
//   header row alone (the columns are still known), tsv and ndjson print nothing, table prints
//   nothing and returns 0 so the caller may put a "no results" note on stderr.
// - CSV is RFC 4180 to the letter: CRLF after every record, the header included, and fields with
//   a comma, quote, CR or LF quoted with quotes doubled. Every CSV reader accepts CRLF. A cell a
//   spreadsheet would run as a formula gets a leading `'` (csv-formula.ts), in a file or not.
// - On a terminal, text from the server is never written raw (terminal-text.ts): json and
//   ndjson write the characters it escapes as JSON escapes (the same JSON), tsv and csv show
//   them escaped as a table does (a line break in a cell as `\n`, so a record stays one line),
//   yaml double-quotes the text that holds them and writes them as YAML escapes.
//   To a pipe or a file every format is written byte for byte as it is.
//
// The jobs live beside it: json-output.ts (json and ndjson text, colour), delimited.ts (tsv and
// csv), yaml-output.ts (yaml), table.ts and record-view.ts (tables), jq-output.ts (--jq),
// streaming.ts (batches and back-pressure); the error writer is error-output.ts.
import type { Column } from '../types/columns.js'
import { csvWriter, tsvRow } from './delimited.js'
import type { OutputFormat } from './format.js'
import type { JqProgram } from './jq.js'
import { filterEach, filterWhole, writeJq } from './jq-output.js'
import { jsonPainter, toJson } from './json-output.js'
import { batchesOf, mapBatches, put, stream } from './streaming.js'
import type { Batches, OutputIO, Records } from './streaming.js'
import { escapeForTerminal } from './terminal-text.js'
import type { OutputRecord } from './values.js'
import { pickFields } from './values.js'
import { say } from './wrap.js'

export { getPath } from './values.js'
export type { OutputRecord } from './values.js'
// What commands write with besides the formats.
export { writeJq } from './jq-output.js'
export { batchesOf, put } from './streaming.js'
export type { Batches, OutputIO, Records } from './streaming.js'

export type OutputOptions = {
  format: OutputFormat
  // The columns of table, tsv and csv, from the resource's descriptor (those --fields picked).
  columns: readonly Column[]
  // --fields: picks the keys of json/ndjson/yaml records; a table shows every column picked.
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
  // yaml: a stream of documents, one a record (--all), instead of one document for the list.
  documents?: boolean
}

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
    return opts.format === 'ndjson' ? filterEach(io, texts, jq) : filterWhole(io, texts, jq)
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
    case 'yaml': {
      const { yamlEnd, yamlItem } = await import('./yaml-output.js')
      const documents = opts.documents === true
      return stream(
        io.out,
        batches,
        (record, index) => yamlItem(project(record, opts.fields), index, documents, terminal),
        (count) => yamlEnd(count, documents),
      )
    }
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
      if (table) await noteDropped(io, table.dropped, opts)
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
    case 'yaml': {
      const { yamlText } = await import('./yaml-output.js')
      return put(io.out, yamlText(project(record, opts.fields), terminal))
    }
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

// A document that is not a record, as --json or -o yaml asks: writeJson's JSON, or one YAML
// document.
export async function writeDocument(
  io: OutputIO,
  value: unknown,
  opts: { format: OutputFormat; jq?: JqProgram },
): Promise<void> {
  if (opts.format !== 'yaml') return writeJson(io, value, { jq: opts.jq })
  const { yamlText } = await import('./yaml-output.js')
  return put(io.out, yamlText(value, io.stdoutIsTTY))
}

function project(record: OutputRecord, fields: readonly string[] | undefined): OutputRecord {
  return fields ? pickFields(record, fields) : record
}

// Said once, under the table: which columns did not fit and how to see them.
async function noteDropped(
  io: OutputIO,
  dropped: readonly string[],
  opts: OutputOptions,
): Promise<void> {
  if (dropped.length === 0 || opts.quiet) return
  await say(
    io,
    `Not shown to fit the terminal: ${escapeForTerminal(dropped.join(', '))}. Use --wide for every column, or --fields.`,
  )
}

function tableOptions(io: OutputIO, opts: OutputOptions) {
  const width = opts.wide ? Infinity : (opts.width ?? io.stdoutWidth ?? DEFAULT_WIDTH)
  return { color: opts.color, width }
}
