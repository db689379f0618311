// One record for a person at a terminal (`chambers get`, what `create` and a single `add` made):
// aligned `key: value` lines with every field the server sent, known ones first; an object
// (the address) as an indented block under its key; lists of records (--include) as tables
// under headings. Reached only through a dynamic import from output.ts.
import stringWidth from 'string-width'
import type { Column } from '../types/columns.js'
import { isPlainObject } from '../util.js'
import { painter } from './color.js'
import { startTable, tableCell } from './table.js'
import { escapeForTerminal } from './terminal-text.js'
import { getPath } from './values.js'
import type { OutputRecord } from './values.js'
import { wrapText } from './wrap.js'

export type RecordViewOptions = {
  color: boolean
  width: number
  // The fields to show first, in this order (dotted paths: their top-level key is used), each
  // value shown as a table shows its column.
  order: readonly Column[]
  // --fields: exactly these paths, nothing else.
  fields?: readonly string[]
  // The columns of lists of records shown as tables, by key (members, events).
  sections?: Readonly<Record<string, readonly Column[]>>
  // Accessible mode: those lists as blocks of `key: value` lines (blocks.ts), not tables.
  blocks?: boolean
}

export type RenderedRecord = { text: string; dropped: string[] }

function isRecordList(value: unknown): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.every(isPlainObject)
}

export async function renderRecord(
  record: OutputRecord,
  opts: RecordViewOptions,
): Promise<RenderedRecord> {
  const paint = painter(opts.color)
  const bold = (text: string) => paint('bold', text)
  const keys =
    opts.fields ??
    [
      ...new Set([
        ...opts.order.map((column) => column.field.split('.')[0]!),
        ...Object.keys(record),
      ]),
    ].filter((key) => Object.hasOwn(record, key))
  // Lists of records become tables: the ones the caller named, and any other non-empty one.
  const lists = opts.fields
    ? []
    : keys.filter(
        (key) =>
          opts.sections?.[key] !== undefined ||
          (isRecordList(record[key]) && (record[key] as unknown[]).length > 0),
      )
  // A list's total is said in its heading.
  const total = (key: string) => key.endsWith('_total') && lists.includes(key.slice(0, -6))
  const fields = keys.filter((key) => !lists.includes(key) && !total(key))
  const width = Math.max(0, ...fields.map((key) => stringWidth(escapeForTerminal(key)) + 1))
  const lines: string[] = []
  const columnOf = new Map(opts.order.map((column) => [column.field, column]))
  const entry = (indent: string, key: string, pad: number, value: unknown, column?: Column) => {
    const label = `${indent}${escapeForTerminal(key)}:`
    if (isPlainObject(value) && Object.keys(value).length > 0) {
      lines.push(bold(label))
      const inner = Math.max(
        ...Object.keys(value).map((k) => stringWidth(escapeForTerminal(k)) + 1),
      )
      for (const [k, v] of Object.entries(value)) entry(`${indent}  `, k, inner, v)
      return
    }
    const start = stringWidth(indent) + pad + 1
    const text = tableCell(value, column)
    // An empty value leaves no trailing spaces.
    if (text === '') return void lines.push(bold(label))
    const lead = `${label}${' '.repeat(start - stringWidth(label))}`
    const fitted = wrapText(text, opts.width, { label: lead, measure: stringWidth })
    lines.push(`${bold(label)}${fitted.slice(label.length)}`)
  }
  for (const key of fields) {
    const value = opts.fields ? getPath(record, key) : record[key]
    entry('', key, width, value, columnOf.get(key))
  }

  const dropped: string[] = []
  for (const key of lists) {
    const list = Array.isArray(record[key]) ? (record[key] as unknown[]).filter(isPlainObject) : []
    // An embedded list is one page; its total says how much of it was cut (`<key>_total`).
    const total = record[`${key}_total`]
    const count =
      typeof total === 'number' && total > list.length ? `${list.length} of ${total}` : list.length
    lines.push('', bold(`${escapeForTerminal(heading(key))} (${count})`))
    if (list.length === 0) continue
    const columns =
      opts.sections?.[key] ??
      [...new Set(list.flatMap((item) => Object.keys(item)))].map((field): Column => ({
        field,
        cut: 'ellipsis',
        width: 8,
      }))
    const table = opts.blocks
      ? (await import('./blocks.js')).startBlocks(columns)
      : await startTable(columns, list, { color: opts.color, width: opts.width, mayDrop: true })
    lines.push(table.render(list).trimEnd())
    dropped.push(...table.dropped.filter((column) => !dropped.includes(column)))
  }
  return { text: `${lines.join('\n')}\n`, dropped }
}

function heading(key: string): string {
  const words = key.replace(/_/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}
