// Tables for a person at a terminal, the way gh and kubectl print them: no borders, a header row
// (bold with colour), two spaces between columns, fitted to the terminal. The columns come from a
// resource's descriptor (src/api/resources); nothing here knows a column by its name. Only reached
// through a dynamic import from output.ts, so no other output mode pays for string-width.
//
// A table streams: its columns are chosen from the declarations and the terminal width alone, its
// widths are settled by the first records, and every later batch of records is printed in them
// as it comes, so memory does not grow with the list. A later value longer than its column takes
// the room the terminal has left on its row: it is cut only at the terminal's width.
import stringWidth from 'string-width'
import type { Column } from '../types/columns.js'
import { painter } from './color.js'
import { escapeForTerminal } from './terminal-text.js'
import { cellText, getPath } from './values.js'
import type { OutputRecord } from './values.js'

// The main text column keeps this many cells (or its whole value) before a later column is shown.
export const MAIN_MIN_WIDTH = 20
// Below this many cells a cut value stops being recognisable: the floor when records turn out
// wider than their columns' declared widths.
export const MIN_CELL_WIDTH = 8
// With --wide (no width to fit), free text is padded to at most this many cells; a longer value
// is printed whole and pushes the rest of its row.
export const WIDE_FREE_WIDTH = 40
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

// The cells its descriptor declares: the usual width of a whole value, the fewest free text is
// cut to (the main text column's 20).
function declared(column: Column): number {
  return column.main ? MAIN_MIN_WIDTH : column.width
}

// The cells a column claims when the columns to show are chosen: what its descriptor declares,
// and never less than its header.
function claim(column: Column): number {
  return Math.max(cellWidth(column.field), declared(column))
}

// Which columns `width` shows, from the declarations alone (never from the records), so that the
// same command at the same width shows the same columns whatever the page holds. Ids are always
// shown; then each column, in order of importance (the descriptor's), is shown when its
// claim fits beside the ones kept so far: one that does not is left out and the less important
// ones are still tried, so a column goes only when every column kept is more important.
export function chooseColumns(columns: readonly Column[], opts: TableOptions): Column[] {
  if (!opts.mayDrop || opts.width === Infinity) return [...columns]
  const kept = new Set(columns.filter((column) => column.cut === 'never'))
  let used = [...kept].reduce((sum, column) => sum + claim(column) + GAP.length, 0)
  for (const column of byImportance(columns)) {
    if (kept.has(column)) continue
    const need = claim(column) + GAP.length
    // The last column kept has no gap after it.
    if (used + need - GAP.length > opts.width) continue
    kept.add(column)
    used += need
  }
  return columns.filter((column) => kept.has(column))
}

// The columns most important first: by their rank, else in their order.
function byImportance(columns: readonly Column[]): Column[] {
  return columns
    .map((column, at) => ({ column, rank: column.rank ?? at }))
    .sort((a, b) => a.rank - b.rank)
    .map(({ column }) => column)
}

// The cells free text keeps before a column is left out: what its descriptor declares.
function floorOf(column: Column): number {
  return column.cut === 'ellipsis' ? declared(column) : Infinity
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

// Free text in `width` columns: down to each free column's first floor, else to its second,
// else (nothing fits: whole values wider than the terminal) at the second, overflowing.
function fitFree(
  natural: readonly number[],
  free: readonly boolean[],
  floors: readonly [(at: number) => number, (at: number) => number],
  width: number,
): number[] {
  const [first, second] = floors.map((floor) =>
    natural.map((_, at) => (free[at] ? floor(at) : Infinity)),
  ) as [number[], number[]]
  return (
    fitColumns(natural, first, width) ??
    fitColumns(natural, second, width) ??
    natural.map((w, at) => Math.min(w, second[at]!))
  )
}

// Settles the columns from their declarations and their widths from the first records of the
// list: whole columns (ids, e-mails, dates) take their real width, free text shares the rest.
export async function startTable(
  columns: readonly Column[],
  first: readonly OutputRecord[],
  opts: TableOptions,
): Promise<Table> {
  const paint = painter(opts.color)
  let shown = chooseColumns(columns, opts)
  const widest = (column: Column) => {
    let widest = cellWidth(column.field)
    // A loop, not Math.max(...cells): a batch can have more records than a call has arguments.
    for (const record of first) {
      widest = Math.max(widest, cellWidth(tableCell(getPath(record, column.field), column)))
    }
    return widest
  }
  const naturalOf = new Map(shown.map((column) => [column, widest(column)]))
  const fits = (columns: readonly Column[]) =>
    fitColumns(
      columns.map((column) => naturalOf.get(column)!),
      columns.map(floorOf),
      opts.width,
    ) !== undefined
  // Whole values wider than declared (long e-mails) would cut free text below its declared cells:
  // the least important column whose leaving is enough goes, else the least important, and the
  // rest are tried again. Never an id or the main text column.
  while (opts.mayDrop && opts.width !== Infinity && !fits(shown)) {
    const candidates = byImportance(shown)
      .filter((column) => column.cut !== 'never' && !column.main)
      .reverse()
    if (candidates.length === 0) break
    const enough = candidates.find((out) => fits(shown.filter((column) => column !== out)))
    const goes = enough ?? candidates[0]!
    shown = shown.filter((column) => column !== goes)
  }
  const free = shown.map((column) => column.cut === 'ellipsis')
  const natural = shown.map((column) => naturalOf.get(column)!)
  // The widths rows are padded to. --wide cuts nothing but pads free text to WIDE_FREE_WIDTH at
  // most, so that one long name does not push every row past the terminal.
  const settled =
    opts.width === Infinity
      ? natural.map((w, at) =>
          free[at] ? Math.min(w, Math.max(WIDE_FREE_WIDTH, cellWidth(shown[at]!.field))) : w,
        )
      : fitFree(natural, free, [(at) => floorOf(shown[at]!), () => MIN_CELL_WIDTH], opts.width)

  const bold = (text: string) => paint('bold', text)
  const painted = (text: string, column: Column) => {
    const color = column.state ? STATE_COLORS[text] : undefined
    return color ? paint(color, text) : text
  }
  const line = (cells: readonly string[], style: (text: string, column: Column) => string) => {
    const widths = rowWidths(cells, free, settled, opts.width)
    return (
      shown
        .map((column, at) => {
          const text = free[at] ? fit(cells[at]!, widths[at]!) : cells[at]!
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
        text += `${line(cells, painted)}\n`
      }
      return text
    },
    dropped: columns.filter((column) => !shown.includes(column)).map((column) => column.field),
  }
}

// The widths one row is printed in. A value wider than its settled column (a later page's longer
// name, a longer e-mail) takes what the terminal allows: a whole one is printed whole, free text
// is cut only where the row would pass the terminal, never below its settled width unless a whole
// value needs the room (then down to MIN_CELL_WIDTH). Such a row is wider than the first ones.
// The last cell is not padded: it takes only its own width.
function rowWidths(
  cells: readonly string[],
  free: readonly boolean[],
  settled: readonly number[],
  width: number,
): number[] {
  const last = cells.length - 1
  const wanted = cells.map((cell, at) =>
    at === last ? cellWidth(cell) : Math.max(settled[at]!, cellWidth(cell)),
  )
  if (width === Infinity) return wanted
  return fitFree(
    wanted,
    free,
    [(at) => settled[at]!, (at) => Math.min(settled[at]!, MIN_CELL_WIDTH)],
    width,
  )
}

// A word of free text that names something exactly (an e-mail address, a URL, an id such as
// ch_0003): cut, it would name something else.
const EXACT_WORD = /^\S*(?:@|:\/\/)\S*$|^[a-z]+_\d+\W?$/i

// Cut to `width` terminal cells with "…", by grapheme, so that no character is split, and before
// a word that names something exactly rather than inside it.
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
  // The word the cut falls in: its start in `out`, its rest after it.
  const start = /\S+$/.exec(out)
  const rest = /^\S+/.exec(text.slice(out.length))
  if (start && rest && EXACT_WORD.test(start[0] + rest[0])) out = out.slice(0, start.index)
  return `${out}…`
}
