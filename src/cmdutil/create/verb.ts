// A write verb is a declaration. The resource's descriptor says what a create sends and how a
// record is known (src/api/resources); the verb adds only what is its own: which flags give which
// fields, its prompts' wording, its summary and its confirmation line. `runCreate` does the rest
// for every write verb: flags ∪ file → prompt for what is missing → confirm → send → print, and a
// file of many rows through the bulk runner (many.ts).
import { checkId } from '../../api/paths.js'
import { checkFields } from '../../api/resources/index.js'
import { readJsonObject, readRecordsInput } from '../../io/records-input.js'
import type { RecordsInput } from '../../io/records-input.js'
import { requireV2 } from '../api-version.js'
import type { Context } from '../context.js'
import { bulkOnly } from './flags.js'
import { createMany } from './many.js'
import { createOne } from './one.js'
import type { Body, CreateOptions, CreateVerb } from './types.js'

export async function runCreate<B extends Body, O extends CreateOptions, A>(
  verb: CreateVerb<B, O, A>,
  opts: O,
  ctx: Context,
): Promise<void> {
  const { create } = verb.resource
  const bulk = create.bulk
  if (create.under) checkId(opts.parent ?? '', `${create.under} id`)
  // What --fields may name is known at once when the file can hold one record only.
  if (!bulk) checkFields(verb.resource, ctx.globals.fields)
  const client = await ctx.api(bulk ? { connections: opts.concurrency } : undefined)
  requireV2(ctx, client, verb.command)
  const input = opts.fromFile ? await readInput(opts.fromFile, ctx, bulk !== undefined) : undefined
  if (input?.kind === 'bulk') {
    checkFields(bulk!.results, ctx.globals.fields)
    return createMany(client, ctx, verb, opts, input)
  }
  if (opts.resume || opts.skipExisting) throw bulkOnly(opts)
  if (bulk) checkFields(verb.resource, ctx.globals.fields)
  return createOne(client, ctx, verb, opts, verb.body(opts, { ...input?.value }))
}

async function readInput(file: string, ctx: Context, many: boolean): Promise<RecordsInput> {
  if (many) return readRecordsInput(file, ctx.io.in)
  return { kind: 'single', value: await readJsonObject(file, ctx.io.in) }
}
