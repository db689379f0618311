// The tsv and csv formats: one line per record, cells as a table shows them.
import { escapeForTerminal } from './terminal-text.js'
import type { OutputRecord } from './values.js'
import { cellText, escapeTsv, getPath } from './values.js'

export function tsvRow(
  record: OutputRecord,
  columns: readonly string[],
  terminal: boolean,
): string {
  const cell = (column: string) => {
    const text = escapeTsv(cellText(getPath(record, column)))
    return terminal ? escapeForTerminal(text) : text
  }
  return `${columns.map(cell).join('\t')}\n`
}

// With CRLF records csv-stringify quotes only fields holding a CRLF; any CR or LF needs quotes.
const CSV_OPTIONS = { record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const

export async function csvWriter(columns: readonly string[], terminal: boolean) {
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
