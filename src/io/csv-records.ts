import type { CsvError } from 'csv-parse/sync'
import { unguardFormula } from './csv-formula.js'
import { InputError } from './input-error.js'

type ParsedRecord = { cells: string[]; endLine: number }

// One record of bulk input. row: 1-based number of the record among the data (CSV: header
// excluded; NDJSON: the n-th non-empty line; JSON array: index + 1). line: the line of the file
// where the record starts, where that is known (NDJSON and CSV).
export type InputRow = { row: number; line?: number; value: Record<string, unknown> }

// The header row of a CSV file: the column names every row shares, and where it is.
export type CsvHeader = { columns: string[]; line: number }

// CSV with a header row → one object per data row. Values stay strings exactly as written (a
// postal code 03046 keeps its zero), but for the `'` the formula guard puts before `=`, `+`, `-`,
// `@`, a tab or a CR (csv-formula.ts), which is dropped: `-o csv` output reads back unchanged.
// An empty cell is left out so that an optional field is not sent as "". csv-parse is imported
// here, on the CSV path only, to keep start-up light.
export async function parseCsvRows(
  text: string,
  source: string,
): Promise<{ header?: CsvHeader; rows: InputRow[] }> {
  const { parse, CsvError } = await import('csv-parse/sync')
  // One line ending for the whole file: csv-parse counts lines wrongly for a CRLF file with a
  // line break inside quotes, and a file saved by two editors can mix both endings.
  const normalized = text.replace(/\r\n/g, '\n')
  const records: ParsedRecord[] = []
  try {
    parse(normalized, {
      bom: true,
      delimiter: sniffDelimiter(normalized),
      skip_empty_lines: true,
      // Row lengths are checked below, to say which row is wrong in words.
      relax_column_count: true,
      // `5" display` or `a, "b"` keep their quotes as written instead of failing the file.
      relax_quotes: true,
      on_record: (cells: string[], context) => {
        records.push({ cells, endLine: context.lines })
        return null
      },
    })
  } catch (error) {
    if (error instanceof CsvError) throw csvSyntaxError(error, normalized, source, records)
    throw error
  }

  let header: string[] | undefined
  let headerLine = 0
  const rows: InputRow[] = []
  for (const { cells, endLine } of records) {
    // A line of only commas or spaces is what spreadsheets leave after the last row.
    if (cells.every((cell) => cell.trim() === '')) continue
    const line = endLine - countLineBreaks(cells)
    if (!header) {
      header = checkHeader(cells, source, line)
      headerLine = line
      continue
    }
    const row = rows.length + 1
    if (cells.length > header.length) {
      throw new InputError(
        `${source}: row ${row} (line ${line}): ${cells.length} cells, but the header ` +
          `(line ${headerLine}) has ${header.length} columns`,
        { source, line, row },
      )
    }
    const value: Record<string, unknown> = {}
    cells.forEach((cell, index) => {
      if (cell === '') return
      // defineProperty: a column named __proto__ must stay a plain key.
      Object.defineProperty(value, header?.[index] as string, {
        value: unguardFormula(cell),
        enumerable: true,
        writable: true,
        configurable: true,
      })
    })
    rows.push({ row, line, value })
  }
  return { header: header && { columns: header, line: headerLine }, rows }
}

// Spreadsheets in much of Europe save "CSV" with semicolons; the header line tells which
// separator the file uses. Ties go to the comma.
function sniffDelimiter(text: string): string {
  const headerLine = text.split('\n').find((line) => line.trim() !== '') ?? ''
  const unquoted = headerLine.replace(/"[^"]*"/g, '')
  const count = (separator: string): number => unquoted.split(separator).length - 1
  let best = ','
  for (const separator of [';', '\t']) {
    if (count(separator) > count(best)) best = separator
  }
  return best
}

function checkHeader(cells: string[], source: string, line: number): string[] {
  // Names are trimmed ("name, email" is a common way to write a header); values are not.
  const names = cells.map((cell) => cell.trim())
  const at = `${source}: header (line ${line})`
  const seen = new Map<string, number>()
  names.forEach((name, index) => {
    if (name === '') {
      throw new InputError(`${at}: column ${index + 1} has no name`, { source, line })
    }
    const first = seen.get(name)
    if (first !== undefined) {
      throw new InputError(
        `${at}: column name "${name}" appears twice (columns ${first + 1} and ${index + 1})`,
        { source, line },
      )
    }
    seen.set(name, index)
  })
  return names
}

function countLineBreaks(cells: string[]): number {
  let count = 0
  for (const cell of cells) {
    for (let index = cell.indexOf('\n'); index !== -1; index = cell.indexOf('\n', index + 1)) {
      count++
    }
  }
  return count
}

function csvSyntaxError(
  error: CsvError,
  text: string,
  source: string,
  records: ParsedRecord[],
): InputError {
  // The row being read when parsing stopped starts on the first non-empty line after the last
  // complete record; header and blank-cell lines are not data rows.
  const lastEnd = records.at(-1)?.endLine ?? 0
  const lines = text.split('\n')
  let line = lastEnd + 1
  while (line < lines.length && (lines[line - 1] as string).trim() === '') line++
  const dataRows = records.filter((record) => record.cells.some((cell) => cell.trim() !== ''))
  const row = dataRows.length // the header is among them, so this is the next row's number
  const where = row === 0 ? `header (line ${line})` : `row ${row} (line ${line})`
  const reason =
    error.code === 'CSV_QUOTE_NOT_CLOSED'
      ? 'a quoted value is never closed (a " is missing)'
      : error.message
  return new InputError(`${source}: ${where}: ${reason}`, {
    source,
    line,
    ...(row > 0 ? { row } : {}),
  })
}
