// A descriptor says everything the CLI shows of one kind of record: the fields --fields accepts
// and `chamberctl fields` lists (nested ones as dotted paths), how each is shown in a table, the
// table's columns in order of importance, and the fields a list can be sorted by.
import type { Column, FieldSpec } from '../../types/columns.js'
import { UsageError } from '../../errors.js'
import { text } from './kinds.js'

export type Descriptor = {
  // Plural, as the user says it: "members".
  name: string
  fields: Readonly<Record<string, FieldSpec>>
  // The default columns, most important first (unless `importance` says otherwise): a narrow
  // terminal leaves out the least important.
  // Also the columns of tsv and csv, in this order: changing it changes what scripts read.
  columns: readonly string[]
  // The default columns most important first, when that is not their order: which a narrow
  // terminal shows.
  importance?: readonly string[]
  sort?: readonly string[]
}

// A field no descriptor knows (an answer's extra key, --fields on a raw answer): free text.
const UNKNOWN = text(8)

// The table's columns: the descriptor's own, or those --fields picked, in the order given.
export function columnsOf(descriptor: Descriptor, fields?: readonly string[]): Column[] {
  const rank = fields ? undefined : descriptor.importance
  return (fields ?? descriptor.columns).map((field) => ({
    field,
    ...(Object.hasOwn(descriptor.fields, field) ? descriptor.fields[field]! : UNKNOWN),
    ...(rank?.includes(field) && { rank: rank.indexOf(field) }),
  }))
}

export function fieldNames(descriptor: Descriptor): string[] {
  return Object.keys(descriptor.fields)
}

// Throws before anything is sent when --fields names a field the descriptor does not have.
export function checkFields(descriptor: Descriptor, fields: readonly string[] | undefined): void {
  const unknown = fields?.filter((field) => !Object.hasOwn(descriptor.fields, field)) ?? []
  if (unknown.length === 0) return
  const names = unknown.map((field) => `"${field}"`).join(', ')
  throw new UsageError(
    `--fields: ${descriptor.name} ${unknown.length === 1 ? 'have no field' : 'have no fields'} ${names}; known: ${fieldNames(descriptor).join(', ')}`,
  )
}
