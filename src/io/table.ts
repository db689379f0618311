// Tables for a person at a terminal. Only reached through a dynamic import from output.ts, and
// cli-table3/chalk are loaded inside the functions too, so no other output mode pays for them.
import { cellText, displayWidth, escapeForTerminal } from './values.js'

// Below this many characters a cut value stops being recognisable, so a table that cannot fit
// with every column at least this wide is allowed to overflow instead.
export const MIN_CELL_WIDTH = 8
// cli-table3's default padding: one space either side of every cell.
const PADDING = 2

export type TableOptions = {
  color: boolean
  // Terminal columns the whole table, borders included, should fit in.
  width: number
}

// One line per cell whatever the value holds: nested values as JSON, control characters escaped.
export function tableCell(value: unknown): string {
  return escapeForTerminal(cellText(value))
}

// Column widths (padding included, as cli-table3 counts them) for a table of `natural` widths
// that must fit `available` columns, or undefined when it fits as it is. The widest columns are
// cut first, all to one common cap, so narrow columns such as ids are never touched while a long
// column still has room to give.
export function fitColumns(natural: readonly number[], available: number): number[] | undefined {
  const total = natural.reduce((sum, width) => sum + width, 0)
  if (total <= available) return undefined
  const floor = MIN_CELL_WIDTH + PADDING
  const fits = (cap: number) =>
    natural.reduce((sum, width) => sum + Math.min(width, cap), 0) <= available
  let low = floor
  let high = Math.max(...natural)
  if (!fits(low)) return natural.map((width) => Math.min(width, floor))
  // The largest cap that fits: `low` always fits, `high` never does.
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2)
    if (fits(mid)) low = mid
    else high = mid
  }
  return natural.map((width) => Math.min(width, low))
}

async function loadTable(color: boolean) {
  const { default: Table } = await import('cli-table3')
  if (!color) return { Table, bold: (text: string) => text }
  // A chalk instance with a fixed level: the caller has already decided about colour from the
  // flags and io.env, and chalk's own detection would look at process.stdout instead.
  const { Chalk } = await import('chalk')
  return { Table, bold: new Chalk({ level: 1 }).bold }
}

// cli-table3's style colours go through @colors/colors, which decides by itself whether to
// colour; turning them off and colouring with our chalk keeps --no-color/NO_COLOR authoritative.
// Compact: a rule under the header only, not between rows, so more rows fit on a screen.
const STYLE = { head: [], border: [], compact: true }

export async function renderTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  opts: TableOptions,
): Promise<string> {
  if (headers.length === 0) return ''
  const { Table, bold } = await loadTable(opts.color)
  // A loop, not Math.max(...rows): a table of --all can have more rows than a call has arguments.
  const natural = headers.map((header) => displayWidth(header) + PADDING)
  for (const row of rows) {
    row.forEach((cell, i) => {
      natural[i] = Math.max(natural[i] ?? 0, displayWidth(cell) + PADDING)
    })
  }
  const colWidths = fitColumns(natural, opts.width - (headers.length + 1))
  const table = new Table({
    head: headers.map((header) => bold(escapeForTerminal(header))),
    style: STYLE,
    truncate: '…',
    ...(colWidths && { colWidths }),
  })
  for (const row of rows) table.push([...row])
  return `${table.toString()}\n`
}

// `kubectl describe`-style: one key/value line per column, for a single record.
export async function renderVerticalTable(
  entries: readonly (readonly [string, string])[],
  opts: TableOptions,
): Promise<string> {
  if (entries.length === 0) return ''
  const { Table, bold } = await loadTable(opts.color)
  const keys = entries.map(([key]) => escapeForTerminal(key))
  const natural = [
    Math.max(...keys.map(displayWidth)) + PADDING,
    Math.max(...entries.map(([, value]) => displayWidth(value))) + PADDING,
  ]
  const colWidths = fitColumns(natural, opts.width - 3)
  const table = new Table({ style: STYLE, truncate: '…', ...(colWidths && { colWidths }) })
  entries.forEach(([, value], i) => table.push([bold(keys[i] as string), value]))
  return `${table.toString()}\n`
}
