// How record values become cells and picked objects. Shared by every output format, and free of
// dependencies so that importing it costs nothing at start-up.
export type OutputRecord = Record<string, unknown>

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

// Own properties only: a field name from argv must never reach Object.prototype
// (`--fields __proto__.toString`).
export function getPath(record: unknown, path: string): unknown {
  let current: unknown = record
  for (const segment of path.split('.')) {
    if (!isObject(current) || !Object.hasOwn(current, segment)) return undefined
    current = current[segment]
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
      if (isObject(next) && !Array.isArray(next)) {
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

const TERMINAL_ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' }

// For text shown on a terminal: data from a server must not move the cursor, retitle the window
// or break a table row, so every C0/C1 control character is shown escaped. Backslashes stay as
// they are, since a person reads this, not a parser.
export function escapeForTerminal(text: string, keep = ''): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) =>
    keep.includes(char)
      ? char
      : (TERMINAL_ESCAPES[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`),
  )
}

// Terminal cells taken by a string: East Asian wide characters and emoji take two. An estimate
// (no grapheme clustering), used to align an error's field list without loading string-width,
// which tables use: the error handler must work even when a module would not load.
export function displayWidth(text: string): number {
  let width = 0
  for (const char of text) {
    const code = char.codePointAt(0) as number
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue
    if ((code >= 0x300 && code <= 0x36f) || code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f)) {
      continue
    }
    width += isWide(code) ? 2 : 1
  }
  return width
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1f64f) ||
    (code >= 0x1f900 && code <= 0x1f9ff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  )
}
