// Reads the records of `--from-file <file|->`: one JSON object, or a bulk of them as a JSON
// array, NDJSON or CSV with a header row (contract §3).
import { extname } from 'node:path'
import type { Readable } from 'node:stream'
import { isPlainObject } from '../util.js'
import type { CsvHeader, InputRow } from './csv-records.js'
import { InputError } from './input-error.js'
import { readInputText } from './input-text.js'
import { findJsonSyntaxError } from './json-syntax.js'
import { checkNesting } from './nesting.js'

export type { CsvHeader, InputRow }

export { InputError } from './input-error.js'

export type BulkFormat = 'json' | 'ndjson' | 'csv'

export type RecordsInput =
  | { kind: 'single'; value: Record<string, unknown> }
  // source: the file's name for messages ("stdin" for -); header: a CSV file's header row.
  | { kind: 'bulk'; format: BulkFormat; source: string; rows: InputRow[]; header?: CsvHeader }

export type ReadRecordsOptions = { allowBulk?: boolean }

const BY_EXTENSION: Record<string, BulkFormat> = {
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.csv': 'csv',
}

const FORMAT_NAMES: Record<BulkFormat, string> = {
  json: 'a JSON array',
  ndjson: 'NDJSON (one object per line)',
  csv: 'CSV',
}

export async function readRecordsInput(
  source: string,
  stdin: Readable,
  opts: ReadRecordsOptions = {},
): Promise<RecordsInput> {
  const { name, text } = await readInputText(source, stdin)
  if (text.trim() === '') throw new InputError(`no records in ${name}`, { source: name })

  const refuseBulk = (format: BulkFormat): void => {
    if (opts.allowBulk === false) {
      throw new InputError(`${name}: expected one JSON object, found ${FORMAT_NAMES[format]}`, {
        source: name,
      })
    }
  }
  const bulk = (format: BulkFormat, rows: InputRow[], header?: CsvHeader): RecordsInput => {
    if (rows.length === 0) throw new InputError(`no records in ${name}`, { source: name })
    return { kind: 'bulk', format, source: name, rows, header }
  }

  const format = source === '-' ? undefined : BY_EXTENSION[extname(source).toLowerCase()]
  const first = text.trimStart()[0]
  if (format === 'csv' || (format === undefined && first !== '[' && first !== '{')) {
    refuseBulk('csv')
    const { parseCsvRows } = await import('./csv-records.js')
    const { header, rows } = await parseCsvRows(text, name)
    return bulk('csv', rows, header)
  }
  if (format === 'ndjson') {
    refuseBulk('ndjson')
    return bulk('ndjson', parseNdjson(text, name))
  }

  const parsed = parseJson(text)
  if (!parsed.ok) {
    // Concatenated objects, one per line, also arrive in files named .json or through a pipe.
    if (looksLikeNdjson(text)) {
      refuseBulk('ndjson')
      return bulk('ndjson', parseNdjson(text, name))
    }
    throw jsonSyntaxError(text, name, parsed.error)
  }
  const { value } = parsed
  checkNesting(value, name)
  if (isPlainObject(value)) return { kind: 'single', value }
  if (!Array.isArray(value)) {
    throw new InputError(
      `${name}: expected a JSON object or an array of objects, found ${describeJson(value)}`,
      { source: name },
    )
  }
  refuseBulk('json')
  const rows = value.map((element: unknown, index): InputRow => {
    if (!isPlainObject(element)) {
      throw new InputError(
        `${name}: array element [${index}] (row ${index + 1}): expected a JSON object, ` +
          `found ${describeJson(element)}`,
        { source: name, row: index + 1 },
      )
    }
    return { row: index + 1, value: element }
  })
  return bulk('json', rows)
}

// For `chambers create --from-file`: exactly one JSON object, whatever the file is called.
export async function readJsonObject(
  source: string,
  stdin: Readable,
): Promise<Record<string, unknown>> {
  const { name, text } = await readInputText(source, stdin)
  if (text.trim() === '') {
    throw new InputError(`${name} is empty: expected one JSON object`, { source: name })
  }
  const parsed = parseJson(text)
  if (!parsed.ok) {
    if (looksLikeNdjson(text)) {
      throw new InputError(`${name}: expected one JSON object, found one object per line`, {
        source: name,
      })
    }
    throw jsonSyntaxError(text, name, parsed.error)
  }
  checkNesting(parsed.value, name)
  if (!isPlainObject(parsed.value)) {
    throw new InputError(`${name}: expected one JSON object, found ${describeJson(parsed.value)}`, {
      source: name,
    })
  }
  return parsed.value
}

function parseNdjson(text: string, source: string): InputRow[] {
  const rows: InputRow[] = []
  text.split('\n').forEach((raw, index) => {
    const content = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (content.trim() === '') return
    const line = index + 1
    const row = rows.length + 1
    const parsed = parseJson(content)
    if (!parsed.ok) {
      const problem = findJsonSyntaxError(content)
      const detail = problem
        ? `column ${problem.column}: ${problem.reason}`
        : `not valid JSON (${firstLine(parsed.error)})`
      throw new InputError(`${source}: line ${line}, ${detail}`, { source, line, row })
    }
    checkNesting(parsed.value, `${source}: line ${line}`)
    if (!isPlainObject(parsed.value)) {
      throw new InputError(
        `${source}: line ${line}: expected a JSON object, found ${describeJson(parsed.value)}`,
        { source, line, row },
      )
    }
    rows.push({ row, line, value: parsed.value })
  })
  return rows
}

// NDJSON rather than a broken document: the first non-empty line is a whole object on its own,
// and more lines follow it.
function looksLikeNdjson(text: string): boolean {
  const lines = text.split('\n').filter((line) => line.trim() !== '')
  if (lines.length < 2) return false
  const first = parseJson(lines[0] as string)
  return first.ok && isPlainObject(first.value)
}

type JsonResult = { ok: true; value: unknown } | { ok: false; error: unknown }

function parseJson(text: string): JsonResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch (error) {
    return { ok: false, error }
  }
}

function jsonSyntaxError(text: string, source: string, error: unknown): InputError {
  const problem = findJsonSyntaxError(text)
  if (!problem) {
    return new InputError(`${source}: not valid JSON (${firstLine(error)})`, { source })
  }
  return new InputError(
    `${source}: line ${problem.line}, column ${problem.column}: ${problem.reason}`,
    { source, line: problem.line },
  )
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n')[0] ?? message
}

function describeJson(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  return `a ${typeof value}`
}
