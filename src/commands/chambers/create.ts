import { paginate } from '../../api/paginate.js'
import { CHAMBER_TYPES } from '../../api/constants.js'
import { chamberCreateSchema } from '../../api/schemas.js'
import { describeId, idAndName } from '../../api/answers.js'
import type { ChamberCreate } from '../../api/schemas.js'
import type { Client } from '../../api/client.js'
import { RESOURCE_FIELDS, checkFields } from '../../api/fields.js'
import type { Context } from '../../cmdutil/context.js'
import { CliError, UsageError } from '../../errors.js'
import { promptConfirm, promptSearch, promptSelect, promptText } from '../../io/prompt.js'
import type { Choice } from '../../io/prompt.js'
import { readJsonObject } from '../../io/records-input.js'
import { printDryRun, printCreated } from '../../cmdutil/write-output.js'
import { checkGiven, validated } from '../../cmdutil/validate.js'
import { requireV2 } from '../../cmdutil/api-version.js'
import { CHAMBER_COLUMNS } from './list.js'

export type Options = {
  name?: string
  type?: string
  hqId?: string
  address?: string
  addressField?: [string, string][]
  fromFile?: string
  dryRun?: boolean
}

const ADDRESS_PROMPTS = [
  { key: 'street', message: 'Street', required: false },
  { key: 'city', message: 'City', required: true },
  { key: 'postal_code', message: 'Postal code', required: false },
  { key: 'country', message: 'Country (e.g. DE)', required: false },
]

export async function create(opts: Options, ctx: Context): Promise<void> {
  const { globals } = ctx
  checkFields(globals.fields, RESOURCE_FIELDS.chambers, 'chambers')
  const client = await ctx.api()
  requireV2(client.version, client.baseUrl, 'chambers create')
  const body = await gather(opts, ctx)

  checkGiven(
    chamberCreateSchema,
    body,
    'chamber',
    [
      body.name === undefined && '--name',
      body.type === undefined && '--type',
      body.type === 'subsidiary' && body.hq_id === undefined && '--hq-id',
      body.address === undefined && '--address or --address-field',
    ],
    globals.canPrompt,
  )
  if (globals.canPrompt) await ask(body, client, ctx)

  const valid = validated(chamberCreateSchema, body, 'chamber')
  if (opts.dryRun) return printDryRun(ctx, 'POST', `${client.baseUrl}/chambers`, valid)
  if (globals.canPrompt && !globals.yes) await confirm(valid, ctx)
  const chamber = await client.chambers.create(valid)
  await printCreated(
    ctx,
    chamber,
    CHAMBER_COLUMNS,
    `Created chamber ${describeId(chamber.id)} (${valid.name})`,
  )
}

// --from-file first, flags over it; the address is merged key by key.
async function gather(opts: Options, ctx: Context): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = opts.fromFile
    ? await readJsonObject(opts.fromFile, ctx.io.in)
    : {}
  if (opts.name !== undefined) body.name = opts.name
  if (opts.type !== undefined) body.type = opts.type
  if (opts.hqId !== undefined) body.hq_id = opts.hqId
  let address = isObject(body.address) ? { ...body.address } : undefined
  if (opts.address !== undefined) address = { ...address, ...parseAddress(opts.address) }
  if (opts.addressField?.length) address = { ...address, ...Object.fromEntries(opts.addressField) }
  if (address !== undefined) body.address = address
  return body
}

function parseAddress(json: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch {
    throw new UsageError(`--address: not valid JSON; give an object like '{"city":"Berlin"}'`)
  }
  if (!isObject(value)) throw new UsageError('--address: must be a JSON object')
  return value
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

// Asks only for what flags and files left out.
async function ask(body: Record<string, unknown>, client: Client, ctx: Context): Promise<void> {
  const { io } = ctx
  if (body.name === undefined) body.name = await promptText(io, { message: 'Name' })
  if (body.type === undefined) {
    body.type = await promptSelect(io, {
      message: 'Type',
      choices: CHAMBER_TYPES.map((value) => ({
        value,
        name: value === 'hq' ? 'hq (headquarters)' : 'subsidiary (of an hq)',
      })),
    })
  }
  if (body.type === 'subsidiary' && body.hq_id === undefined) {
    body.hq_id = await chooseHq(client, ctx)
  }
  if (body.address === undefined) {
    const address: Record<string, string> = {}
    // With --yes, only what is required is asked.
    for (const field of ADDRESS_PROMPTS.filter((f) => f.required || !ctx.globals.yes)) {
      const value = await promptText(io, { message: field.message, required: field.required })
      if (value !== '') address[field.key] = value
    }
    body.address = address
  }
}

async function chooseHq(client: Client, ctx: Context): Promise<string> {
  const hqs: { id: string; name?: string }[] = []
  for await (const chamber of paginate((p) => client.chambers.list({ ...p, type: 'hq' }), {
    all: true,
  })) {
    // One without an id could not be chosen as anyone's HQ.
    const choice = idAndName(chamber)
    if (choice) hqs.push(choice)
  }
  return promptSearch(ctx.io, {
    message: 'Headquarters (type to filter, or type an id)',
    source: (term) => {
      const matches: Choice<string>[] = matchHqs(hqs, term).map((hq) => ({
        value: hq.id,
        name: `${hq.name ?? hq.id} (${hq.id})`,
      }))
      if (term && !hqs.some((hq) => hq.id === term)) {
        matches.push({ value: term, name: `use id ${term}` })
      }
      return matches
    },
  })
}

// The hqs that match what was typed, best first: the exact id, then names with a word starting
// with it ("Hamb" → Hamburg), then any id or name containing it ("Chamber" holds "hamb" too).
export function matchHqs<H extends { id: string; name?: string }>(
  hqs: readonly H[],
  term: string,
): H[] {
  const wanted = term.trim().toLowerCase()
  if (wanted === '') return [...hqs]
  const rank = (hq: H): number => {
    const id = hq.id.toLowerCase()
    const name = (hq.name ?? '').toLowerCase()
    if (id === wanted) return 0
    if (name.split(/[^\p{L}\p{N}]+/u).some((word) => word.startsWith(wanted))) return 1
    if (name.startsWith(wanted) || id.startsWith(wanted)) return 1
    if (name.includes(wanted) || id.includes(wanted)) return 2
    return 3
  }
  return hqs
    .map((hq) => ({ hq, rank: rank(hq) }))
    .filter(({ rank }) => rank < 3)
    .sort((a, b) => a.rank - b.rank)
    .map(({ hq }) => hq)
}

async function confirm(body: ChamberCreate, ctx: Context): Promise<void> {
  const address = Object.entries(body.address)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(', ')
  ctx.io.err.write(
    [
      'About to create:',
      `  name:    ${body.name}`,
      `  type:    ${body.type}`,
      ...(body.hq_id ? [`  hq_id:   ${body.hq_id}`] : []),
      `  address: ${address || '(empty)'}`,
      '',
    ].join('\n'),
  )
  if (!(await promptConfirm(ctx.io, 'Create this chamber?'))) {
    throw new CliError('not created: declined at the confirmation')
  }
}
