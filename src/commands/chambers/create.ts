import { paginate } from '../../api/paginate.js'
import { CHAMBER_TYPES } from '../../api/constants.js'
import { chamberCreateSchema } from '../../api/schemas.js'
import { describeId, idAndName } from '../../api/answers.js'
import type { ChamberCreate } from '../../api/schemas.js'
import type { Client } from '../../api/client.js'
import { ApiError } from '../../api/errors.js'
import { chambers, checkFields } from '../../api/resources/index.js'
import type { Context } from '../../cmdutil/context.js'
import { UsageError } from '../../errors.js'
import { isPlainObject } from '../../util.js'
import { confirmOrCancel, promptSearch, promptSelect, promptText } from '../../io/prompt.js'
import type { Choice } from '../../io/prompt.js'
import { readJsonObject } from '../../io/records-input.js'
import { escapeForTerminal } from '../../io/terminal-text.js'
import { printDryRun, printCreated } from '../../cmdutil/write-output.js'
import { asking, checkGiven, validated } from '../../cmdutil/validate.js'
import { requireV2 } from '../../cmdutil/api-version.js'
import { say } from '../../io/wrap.js'

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
  checkFields(chambers, globals.fields)
  const client = await ctx.api()
  requireV2(ctx, client, 'chambers create')
  const body = await gather(opts, ctx)

  const prompting = checkGiven(
    chamberCreateSchema,
    body,
    'chamber',
    [
      body.name === undefined && '--name',
      body.type === undefined && '--type',
      body.type === 'subsidiary' && body.hq_id === undefined && '--hq-id',
      body.address === undefined && '--address or --address-field',
    ],
    asking(globals.canPrompt, opts.fromFile),
  )
  const asked = prompting ? await ask(body, client, ctx) : undefined

  const valid = validated(chamberCreateSchema, body, 'chamber')
  if (opts.dryRun) return printDryRun(ctx, 'POST', `${client.baseUrl}/chambers`, valid)
  // Values that all came from flags or a file were meant: only answers typed here are confirmed.
  if (asked && !globals.yes) {
    await confirm(valid, asked.hq ?? (await describeHq(valid.hq_id, client)), ctx)
  }
  const chamber = await client.chambers.create(valid)
  await printCreated(
    ctx,
    chamber,
    chambers,
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
  let address = isPlainObject(body.address) ? { ...body.address } : undefined
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
  if (!isPlainObject(value)) throw new UsageError('--address: must be a JSON object')
  return value
}

type Hq = { id: string; name?: string }

// Asks for what flags and files left out. The hq chosen from the list comes back as the summary
// shows it, by name and id.
async function ask(
  body: Record<string, unknown>,
  client: Client,
  ctx: Context,
): Promise<{ hq?: string }> {
  const { io } = ctx
  let hq: string | undefined
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
    const chosen = await chooseHq(client, ctx)
    body.hq_id = chosen.id
    hq = chosen.label
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
  return { hq }
}

async function chooseHq(client: Client, ctx: Context): Promise<{ id: string; label: string }> {
  const hqs: Hq[] = []
  for await (const chamber of paginate((p) => client.chambers.list({ ...p, type: 'hq' }), {
    all: true,
  })) {
    // One without an id could not be chosen as anyone's HQ.
    const choice = idAndName(chamber)
    if (choice) hqs.push(choice)
  }
  const id = await promptSearch(ctx.io, {
    message: 'Headquarters (type to filter, or type an id)',
    source: (term) => {
      const matches: Choice<string>[] = matchHqs(hqs, term).map((hq) => ({
        value: hq.id,
        name: hqLabel(hq),
      }))
      // An id that is no listed hq's can still be sent as typed (the server has the last word).
      const typed = term.trim()
      // The prompt shows it escaped (io/prompt.ts).
      if (typed && matches.length === 0) matches.push({ value: typed, name: `use id ${typed}` })
      return matches
    },
  })
  const hq = hqs.find((known) => known.id === id)
  return { id, label: hq ? hqLabel(hq) : `${escapeForTerminal(id)} (not one of the hqs listed)` }
}

// Names and ids come from the server: escaped before they reach the terminal.
const hqLabel = (hq: Hq) => escapeForTerminal(`${hq.name ?? hq.id} (${hq.id})`)

// An hq given by --hq-id or the file, looked up for the summary to show its name.
async function describeHq(id: string | null | undefined, client: Client) {
  if (id === undefined || id === null) return undefined
  try {
    const hq = idAndName(await client.chambers.get(id))
    return hq ? hqLabel(hq) : escapeForTerminal(id)
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      return `${escapeForTerminal(id)} (no such chamber)`
    }
    throw error
  }
}

// The hqs that match what was typed, best first: the exact id or name, then names with a word starting
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
    if (id === wanted || name === wanted) return 0
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

async function confirm(body: ChamberCreate, hq: string | undefined, ctx: Context): Promise<void> {
  // The values may come from a file, the HQ's name from the server: shown escaped, one line each.
  const address = escapeForTerminal(
    Object.entries(body.address)
      .map(([key, value]) => `${key}=${String(value)}`)
      .join(', '),
  )
  await say(
    ctx.io,
    [
      'About to create:',
      `  name:    ${escapeForTerminal(body.name)}`,
      `  type:    ${body.type}`,
      ...(hq ? [`  hq:      ${hq}`] : []),
      `  address: ${address || '(empty)'}`,
    ].join('\n'),
  )
  await confirmOrCancel(ctx.io, 'Create this chamber?')
}
