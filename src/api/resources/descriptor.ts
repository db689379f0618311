// A descriptor says everything the CLI shows of one kind of record: the fields --fields accepts
// and `chamberctl fields` lists (nested ones as dotted paths), how each is shown in a table, the
// table's columns in order of importance, and the fields a list can be sorted by.
import type * as z from 'zod/mini'
import type { Column, FieldSpec } from '../../types/columns.js'
import type { AnswerRecord, Page } from '../answers.js'
import type { Client, PageParams, WriteOptions } from '../client.js'
import { UsageError } from '../../errors.js'
import { text } from './kinds.js'

export type Descriptor<Create = unknown> = {
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
  // What a create of this resource needs, for a write verb (src/cmdutil/create/): a Creates.
  create?: Create
}

export type CreateSchema<B> = z.ZodMiniType<B> & {
  shape: Readonly<Record<string, z.ZodMiniType>>
}

// A write verb as data: one generic path creates one record from flags, a file and prompts, and
// one creates many through the bulk runner, from this alone. `B` is the request body; records
// made `under` a chamber are sent with its id.
export type Creates<B> = {
  // Singular, in messages: "member is not valid: email".
  noun: string
  // Strict: what is sent (src/api/schemas.ts). Loaded when a create runs, not with the
  // descriptor: a list, which every request is, never builds the request schemas.
  schema(): Promise<CreateSchema<B>>
  under?: 'chamber'
  // The path the create posts to (the parent's id as one segment), for --dry-run.
  path(parent: string | undefined): string
  send(
    client: Client,
    parent: string | undefined,
    body: B,
    options?: WriteOptions,
  ): Promise<AnswerRecord>
  // The records already there, walked for skip/resume look-ups (src/cmdutil/bulk/lookups.ts).
  list(client: Client, parent: string | undefined): (page: PageParams) => Promise<Page>
  // The natural key: the field that identifies a record among its parent's (a member by e-mail),
  // and how two values of it compare. Skip/resume find a record by it.
  key: { field: string; fold(value: string): string }
  // A verb that creates many from one file (--from-file rows): the columns of its results, one
  // per input row, and of the failures as a terminal shows them.
  bulk?: { results: Descriptor; failures: Descriptor }
}

// Contextual types for a resource's declaration.
export function creates<B>(declaration: Creates<B>): Creates<B> {
  return declaration
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
