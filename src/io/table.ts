// Tables for a person at a terminal, the way gh and kubectl print them: no borders, a header row
// (bold with colour), two spaces between columns, fitted to the terminal. The columns come from a
// resource's descriptor (src/api/resources); nothing here knows a column by its name. Only reached
// through a dynamic import from output.ts, so no other output mode pays for string-width or chalk.
//
// A table streams: its columns and their widths are settled by the first records, and every
// later batch of records is printed in them as it comes, so memory does not grow with the list.
import stringWidth from 'string-width'
import type { Column } from '../types/columns.js'
import { escapeForTerminal } from './terminal-text.js'
import { cellText, getPath } from './values.js'
import type { OutputRecord } from './values.js'

// The main text column keeps this many cells (or its whole value) before a later column is shown.
export const MAIN_MIN_WIDTH = 20
// Below this many cells a cut value stops being recognisable: the floor when records turn out
// wider than their columns' declared widths.
export const MIN_CELL_WIDTH = 8
const GAP = '  '

// Terminal cells of a text: string-width, skipped for plain ASCII (most cells of a long list).
function cellWidth(text: string): number {
  return /^[\x20-\x7e]*$/.test(text) ? text.length : stringWidth(text)
}

export type TableOptions = {
  color: boolean
  // Terminal columns the table should fit; Infinity keeps every column whole (--wide).
  width: number
  // Whether columns may be left out to fit (not when --fields chose them).
  mayDrop: boolean
}

export type Table = {
  // The lines of these records, the header line before the first ones.
  render(records: readonly OutputRecord[]): string
  // Columns left out to fit the width, in the order of the descriptor.
  dropped: string[]
}

const STATE_COLORS: Record<string, 'green' | 'yellow' | 'red' | 'dim'> = {
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

const FRACTION = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.\d+(Z|[+-]\d\d:?\d\d)?$/

// One line per cell whatever the value holds: nested values as JSON, control characters escaped;
// a date-time to the second.
export function tableCell(value: unknown, column?: Pick<Column, 'time'>): string {
  const text = cellText(value)
  return escapeForTerminal(column?.time ? text.replace(FRACTION, '$1$2') : text)
}

// The cells a column claims when the columns to show are chosen: what its descriptor declares,
// and never less than its header.
function claim(column: Column): number {
  return Math.max(cellWidth(column.field), column.main ? MAIN_MIN_WIDTH : column.width)
}

// Which columns `width` shows, from the declarations alone (never from the records): in order of
// importance, each kept while the ones kept so far still fit; the first that does not ends the
// table, except ids, which are always shown.
export function chooseColumns(columns: readonly Column[], opts: TableOptions): Column[] {
  if (!opts.mayDrop || opts.width === Infinity) return [...columns]
  const shown: Column[] = []
  let used = 0
  let full = false
  for (const column of columns) {
    const need = claim(column) + (shown.length > 0 ? GAP.length : 0)
    full ||= used + need > opts.width
    if (full && column.cut !== 'never') continue
    shown.push(column)
    used += need
  }
  return shown
}

// Column widths for cells of `natural` widths in `width` terminal columns, or undefined when
// even the narrowest layout does not fit. A column whose floor is below its natural width is
// free text: the free ones share what is left, the widest cut first, all to one common cap, none
// below its floor; the others keep their width.
export function fitColumns(
  natural: readonly number[],
  floors: readonly number[],
  width: number,
): number[] | undefined {
  const gaps = GAP.length * (natural.length - 1)
  const total = (widths: readonly number[]) => widths.reduce((sum, w) => sum + w, 0) + gaps
  if (total(natural) <= width) return [...natural]
  const sized = (cap: number) =>
    natural.map((w, i) => Math.max(Math.min(floors[i]!, w), Math.min(w, cap)))
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

// Settles the columns and their widths from the first records of the list.
export async function startTable(
  columns: readonly Column[],
  first: readonly OutputRecord[],
  opts: TableOptions,
): Promise<Table> {
  const colors = await loadColors(opts.color)
  let shown = chooseColumns(columns, opts)
  // A whole column takes at least its declared width, so that later pages' values fit it too.
  const natural = (column: Column) => {
    let widest = Math.max(cellWidth(column.field), column.cut === 'ellipsis' ? 0 : column.width)
    // A loop, not Math.max(...cells): a batch can have more records than a call has arguments.
    for (const record of first) {
      widest = Math.max(widest, cellWidth(tableCell(getPath(record, column.field), column)))
    }
    return widest
  }
  const widthOf = new Map(columns.map((column) => [column, natural(column)]))
  const layout = (floor: (column: Column) => number) =>
    fitColumns(
      shown.map((column) => widthOf.get(column)!),
      shown.map((column) => (column.cut === 'ellipsis' ? floor(column) : Infinity)),
      opts.width,
    )
  const declared = (column: Column) => (column.main ? MAIN_MIN_WIDTH : column.width)
  // Records wider than their declarations: free text below its declared floor, then (when
  // allowed) columns left out from the end.
  let widths = layout(declared) ?? layout(() => MIN_CELL_WIDTH)
  while (!widths && opts.mayDrop) {
    const last = shown.findLastIndex((column) => column.cut !== 'never')
    if (last < 0) break
    shown = shown.filter((_, i) => i !== last)
    widths = layout(() => MIN_CELL_WIDTH)
  }
  // Nothing fits: the free columns at their floor, overflowing the terminal.
  const settled =
    widths ??
    shown.map((column) =>
      column.cut === 'ellipsis'
        ? Math.min(widthOf.get(column)!, MIN_CELL_WIDTH)
        : widthOf.get(column)!,
    )
  // Free text in the last column is never padded: it may take all the room left, for the longer
  // values of later pages (a failure's reason after a page of rows that worked).
  const last = shown.length - 1
  if (widths && last >= 0 && shown[last]!.cut === 'ellipsis' && opts.width !== Infinity) {
    const used = settled.reduce((sum, w) => sum + w, GAP.length * last)
    settled[last] = Math.max(settled[last]!, settled[last]! + opts.width - used)
  }

  const bold = (text: string) => colors?.bold(text) ?? text
  const paint = (text: string, column: Column) => {
    const color = column.state ? STATE_COLORS[text] : undefined
    return color && colors ? colors[color](text) : text
  }
  const line = (cells: readonly string[], style: (text: string, column: Column) => string) => {
    const widths = rowWidths(shown, cells, settled, opts.width)
    return (
      shown
        .map((column, at) => {
          const text = column.cut === 'ellipsis' ? fit(cells[at]!, widths[at]!) : cells[at]!
          // The last column is not padded: no trailing spaces.
          const pad = at === shown.length - 1 ? '' : ' '.repeat(widths[at]! - cellWidth(text))
          return style(text, column) + pad
        })
        .join(GAP)
        // An empty last cell leaves no gap behind.
        .trimEnd()
    )
  }
  let header: string | undefined = line(
    shown.map((column) => escapeForTerminal(column.field)),
    bold,
  )
  return {
    render(records) {
      let text = ''
      if (header !== undefined) {
        text = `${header}\n`
        header = undefined
      }
      for (const record of records) {
        const cells = shown.map((column) => tableCell(getPath(record, column.field), column))
        text += `${line(cells, paint)}\n`
      }
      return text
    },
    dropped: columns.filter((column) => !shown.includes(column)).map((column) => column.field),
  }
}

// The widths one row is printed in. A value of a later page may be wider than its column: a whole
// one (an e-mail) is printed whole, and the row's free text gives up the cells it takes (down to
// MIN_CELL_WIDTH), so the line still fits.
function rowWidths(
  shown: readonly Column[],
  cells: readonly string[],
  settled: readonly number[],
  width: number,
): number[] {
  const widths = shown.map((column, at) =>
    column.cut === 'ellipsis' ? settled[at]! : Math.max(settled[at]!, cellWidth(cells[at]!)),
  )
  let over = widths.reduce((sum, w) => sum + w, GAP.length * (widths.length - 1)) - width
  for (let at = shown.length - 1; at >= 0 && over > 0; at--) {
    if (shown[at]!.cut !== 'ellipsis') continue
    const give = Math.min(over, widths[at]! - Math.min(widths[at]!, MIN_CELL_WIDTH))
    widths[at]! -= give
    over -= give
  }
  return widths
}

async function loadColors(color: boolean) {
  if (!color) return undefined
  // A chalk instance with a fixed level: the caller has already decided about colour from the
  // flags and io.env, and chalk's own detection would look at process.stdout instead.
  const { Chalk } = await import('chalk')
  return new Chalk({ level: 1 })
}

// Cut to `width` terminal cells with "…", by grapheme, so that no character is split.
export function fit(text: string, width: number): string {
  if (cellWidth(text) <= width) return text
  let out = ''
  let used = 0
  for (const { segment } of new Intl.Segmenter().segment(text)) {
    const w = cellWidth(segment)
    if (used + w > width - 1) break
    out += segment
    used += w
  }
  return `${out}…`
}
