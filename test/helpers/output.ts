// Reading what chamberctl prints: by format (lines, TSV columns, NDJSON, CSV (RFC 4180), the ids
// of records, ANSI colour codes, YAML streams), a bulk run's summary line, and waiting for a line
// to appear.
import { parseAllDocuments } from 'yaml'

// Lines of output, whether they end in LF or (CSV) CRLF.
export function lines(text: string): string[] {
  return text.split(/\r?\n/).filter((line) => line !== '')
}

export function tsvColumn(text: string, column = 0): string[] {
  return lines(text).map((line) => line.split('\t')[column] ?? '')
}

export function ndjson<T = Record<string, unknown>>(text: string): T[] {
  return lines(text).map((line) => JSON.parse(line) as T)
}

export function idsOf(records: readonly unknown[]): string[] {
  return records.map((record) => (record as { id: string }).id)
}

// eslint-disable-next-line no-control-regex
export const ANSI = /\u001b\[[0-9;]*m/

// RFC 4180: quoted fields may hold commas, doubled quotes and line breaks.
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (char === '"') quoted = false
      else field += char
    } else if (char === '"') quoted = true
    else if (char === ',') {
      row.push(field)
      field = ''
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else field += char
  }
  if (field !== '' || row.length > 0) rows.push([...row, field])
  return rows
}

// Resolves once `read()` matches, checking on every turn of the event loop; rejects after
// `timeoutMs` so that a missing line fails the test instead of hanging it.
export async function until(
  read: () => string,
  pattern: RegExp,
  timeoutMs = 5_000,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const match = read().match(pattern)
    if (match) return match
    if (Date.now() > deadline) {
      throw new Error(`no ${pattern} within ${timeoutMs} ms in:\n${read()}`)
    }
    await new Promise((resolve) => setImmediate(resolve))
  }
}

// A bulk run's summary line: the counts, any note (` (interrupted)`), and the time it took.
export function summaryLine(counts: string, note = ''): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`^${escape(counts)}${escape(note)} in \\d+\\.\\d s\\n?$`)
}

// A YAML stream (`---` between documents): each document's value, failing on a document that
// does not parse.
export function yamlDocuments(text: string): unknown[] {
  return parseAllDocuments(text).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`not YAML: ${doc.errors[0]?.message}`)
    return doc.toJS() as unknown
  })
}
