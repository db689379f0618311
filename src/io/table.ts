// Tables for a person at a terminal, the way gh and kubectl print them: no borders, a header row
// (bold with colour), two spaces between columns, fitted to the terminal. Only reached through
// a dynamic import from output.ts, so no other output mode pays for string-width or chalk.
import stringWidth from 'string-width'
import { cellText, escapeForTerminal } from './values.js'

// Below this many cells a cut value stops being recognisable.
export const MIN_CELL_WIDTH = 8
const GAP = '  '

export type TableOptions = {
  color: boolean
  // Terminal columns the table should fit; Infinity keeps every column whole (--wide).
  width: number
  // Whether columns may be left out when even cut ones do not fit (not when --fields chose them).
  mayDrop: boolean
}

export type RenderedTable = {
  text: string
  // Columns left out to fit the width, lowest priority (rightmost) first.
  dropped: string[]
}

// One line per cell whatever the value holds: nested values as JSON, control characters escaped.
export function tableCell(value: unknown): string {
  return escapeForTerminal(cellText(value))
}

// Values a user copies (ids, e-mails, dates, numbers) and short codes are never cut; the other
// columns are free text that gives up room first.
const WHOLE = /(^|[._])(id|email|row|line|step|kind|status|type|action|phone)$|_at$|date/

export function isFreeText(column: string): boolean {
  return !WHOLE.test(column)
}

const STATUS_COLORS: Record<string, 'green' | 'yellow' | 'red' | 'dim'> = {
  active: 'green',
  upcoming: 'green',
  created: 'green',
  valid: 'green',
  pending: 'yellow',
  unknown: 'yellow',
  skipped: 'dim',
  inactive: 'dim',
  past: 'dim',
  not_sent: 'dim',
  canceled: 'red',
  failed: 'red',
  invalid: 'red',
}

async function loadColors(color: boolean) {
  if (!color) return undefined
  // A chalk instance with a fixed level: the caller has already decided about colour from the
  // flags and io.env, and chalk's own detection would look at process.stdout instead.
  const { Chalk } = await import('chalk')
  return new Chalk({ level: 1 })
}

// Column widths for cells of `natural` widths in `width` terminal columns, or undefined when
// even the narrowest layout does not fit. Whole columns keep their width; free ones share what is
// left, the widest cut first, all to one common cap, none below MIN_CELL_WIDTH.
export function fitColumns(
  natural: readonly number[],
  free: readonly boolean[],
  width: number,
): number[] | undefined {
  const gaps = GAP.length * (natural.length - 1)
  if (natural.reduce((sum, w) => sum + w, 0) + gaps <= width) return [...natural]
  const floor = (i: number) => (free[i] ? Math.min(natural[i]!, MIN_CELL_WIDTH) : natural[i]!)
  const sized = (cap: number) =>
    natural.map((w, i) => (free[i] ? Math.max(floor(i), Math.min(w, cap)) : w))
  const total = (widths: number[]) => widths.reduce((sum, w) => sum + w, 0) + gaps
  if (total(sized(0)) > width) return undefined
  // The largest cap that fits: `low` always fits, `high` never does.
  let low = 0
  let high = Math.max(...natural)
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2)
    if (total(sized(mid)) <= width) low = mid
    else high = mid
  }
  return sized(low)
}

export async function renderTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  opts: TableOptions,
): Promise<RenderedTable> {
  if (headers.length === 0) return { text: '', dropped: [] }
  const colors = await loadColors(opts.color)
  // A loop, not Math.max(...rows): a table of --all can have more rows than a call has arguments.
  const natural = headers.map((header) => stringWidth(header))
  for (const row of rows) {
    row.forEach((cell, i) => {
      natural[i] = Math.max(natural[i] ?? 0, stringWidth(cell))
    })
  }
  const free = headers.map(isFreeText)
  // Still too wide with every free column at its floor: leave out columns, by priority.
  let shown = headers.map((_, i) => i)
  const fitShown = () =>
    fitColumns(
      shown.map((i) => natural[i]!),
      shown.map((i) => free[i]!),
      opts.width,
    )
  let widths = fitShown()
  for (const drop of dropOrder(headers)) {
    if (widths || !opts.mayDrop) break
    shown = shown.filter((i) => i !== drop)
    widths = fitShown()
  }
  // Nothing fits: every free column at its floor, overflowing the terminal.
  widths ??= shown.map((i) => (free[i] ? Math.min(natural[i]!, MIN_CELL_WIDTH) : natural[i]!))
  const status = headers.indexOf('status')
  const line = (cells: readonly string[], style: (text: string, i: number) => string) =>
    shown
      .map((column, at) => {
        const text = fit(cells[column] ?? '', widths[at]!)
        // The last column is not padded: no trailing spaces.
        const pad = at === shown.length - 1 ? '' : ' '.repeat(widths[at]! - stringWidth(text))
        return style(text, column) + pad
      })
      .join(GAP)
  const bold = (text: string) => colors?.bold(text) ?? text
  const paint = (text: string, i: number) => {
    const color = i === status ? STATUS_COLORS[text] : undefined
    return color && colors ? colors[color](text) : text
  }
  const lines = [
    line(
      headers.map((header) => escapeForTerminal(header)),
      bold,
    ),
    ...rows.map((row) => line(row, paint)),
  ]
  return {
    text: `${lines.join('\n')}\n`,
    dropped: headers.filter((_, i) => !shown.includes(i)),
  }
}

// Details a listing can do without go first (phone, dates, secondary types and places), then
// the rest from the right; the first column (the id) always stays.
const DETAIL = /phone|_at$|membership_type|hq_id|location|address|^id$/

function dropOrder(headers: readonly string[]): number[] {
  const order = headers
    .map((_, i) => i)
    .slice(1)
    .reverse()
  return [
    ...order.filter((i) => DETAIL.test(headers[i]!)),
    ...order.filter((i) => !DETAIL.test(headers[i]!)),
  ]
}

// Cut to `width` terminal cells with "…", by grapheme, so that no character is split.
export function fit(text: string, width: number): string {
  if (stringWidth(text) <= width) return text
  let out = ''
  let used = 0
  for (const { segment } of new Intl.Segmenter().segment(text)) {
    const w = stringWidth(segment)
    if (used + w > width - 1) break
    out += segment
    used += w
  }
  return `${out}…`
}
