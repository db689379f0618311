// How record values become cells and picked objects. Shared by every output format, and free of
// dependencies so that importing it costs nothing at start-up.
import { isPlainObject } from '../util.js'

export type OutputRecord = Record<string, unknown>

// Own properties only: a field name from argv must never reach Object.prototype
// (`--fields __proto__.toString`). A path goes into arrays too (`tags.0`).
export function getPath(record: unknown, path: string): unknown {
  let current: unknown = record
  for (const segment of path.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) {
      return undefined
    }
    current = (current as Record<string, unknown>)[segment]
  }
  return current
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, not assignment: a key named __proto__ (legal in JSON) must stay a plain key.
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  })
}

// `address.city` is picked into {"address": {"city": ...}} so that JSON keeps the record's shape;
// missing values are left out rather than invented as null.
export function pickFields(record: OutputRecord, fields: readonly string[]): OutputRecord {
  const picked: OutputRecord = {}
  for (const field of fields) {
    const value = getPath(record, field)
    if (value === undefined) continue
    const segments = field.split('.')
    const last = segments.pop() as string
    let target = picked
    for (const segment of segments) {
      const next = Object.hasOwn(target, segment) ? target[segment] : undefined
      if (isPlainObject(next)) {
        // A copy, so that adding a sibling never writes into the caller's record.
        const copy = { ...next }
        setOwn(target, segment, copy)
        target = copy
      } else {
        const fresh: OutputRecord = {}
        setOwn(target, segment, fresh)
        target = fresh
      }
    }
    setOwn(target, last, value)
  }
  return picked
}

// The plain text of one cell, before any format-specific escaping.
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value)
  }
  return JSON.stringify(value) ?? ''
}

const TSV_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' }

// Backslash-escaped like `mysql --batch` and PostgreSQL's text COPY, so that a row is always one
// line and the escaping can be undone; CR is included because it splits lines for some tools.
export function escapeTsv(text: string): string {
  return text.replace(/[\\\t\n\r]/g, (char) => TSV_ESCAPES[char] as string)
}
