// `chambers create`, through the generic create path (src/cmdutil/create); what is its own is
// here: its flags' fields (the address merged key by key), its prompts and its summary.
import { paginate } from '../../api/paginate.js'
import { CHAMBER_TYPES } from '../../api/constants.js'
import { describeId, idAndName } from '../../api/answers.js'
import type { ChamberCreate } from '../../api/schemas.js'
import type { Client } from '../../api/client.js'
import { ApiError } from '../../api/errors.js'
import { chambers } from '../../api/resources/index.js'
import type { Exactly } from '../../cmdutil/command.js'
import type { Context } from '../../cmdutil/context.js'
import { runCreate } from '../../cmdutil/create/verb.js'
import type { Prompting, CreateVerb } from '../../cmdutil/create/types.js'
import { UsageError } from '../../errors.js'
import { isPlainObject } from '../../util.js'
import { promptSearch, promptSelect, promptText } from '../../io/prompt.js'
import type { Choice } from '../../io/prompt.js'
import { escapeForTerminal } from '../../io/terminal-text.js'

// The flags chambers/index.ts declares: one renamed, added or dropped there alone is a type error
// where it calls toOptions.
export type Flags = {
  name?: string
  type?: (typeof CHAMBER_TYPES)[number]
  hqId?: string
  address?: string
  addressField?: [string, string][]
  fromFile?: string
  dryRun?: true
}
export type Options = Flags

export function toOptions<F extends Flags>(flags: Exactly<F, Flags>): Options {
  return flags
}

const ADDRESS_PROMPTS = [
  { key: 'street', message: 'Street', required: false },
  { key: 'city', message: 'City', required: true },
  { key: 'postal_code', message: 'Postal code', required: false },
  { key: 'country', message: 'Country (e.g. DE)', required: false },
]

export async function create(opts: Options, ctx: Context): Promise<void> {
  await runCreate(CREATE, opts, ctx)
}

const CREATE: CreateVerb<ChamberCreate, Options, { hq?: string }> = {
  command: 'chambers create',
  resource: chambers,
  body,
  missing: (body) => [
    body.name === undefined && '--name',
    body.type === undefined && '--type',
    body.type === 'subsidiary' && body.hq_id === undefined && '--hq-id',
    body.address === undefined && '--address or --address-field',
  ],
  ask,
  summary: async (body, asked, { client }) => ({
    lines: summary(body, asked.hq ?? (await describeHq(body.hq_id, client))),
    question: 'Create this chamber?',
  }),
  created: (chamber, valid) => `Created chamber ${describeId(chamber.id)} (${valid.name})`,
}

// The flags over the file's object; the address is merged key by key.
function body(opts: Options, file: Record<string, unknown>): Record<string, unknown> {
  const body = { ...file }
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
  { client, ctx, optional }: Prompting,
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
    for (const field of ADDRESS_PROMPTS.filter((f) => f.required || optional)) {
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

function summary(body: ChamberCreate, hq: string | undefined): string[] {
  // The values may come from a file, the HQ's name from the server: shown escaped, one line each.
  const address = escapeForTerminal(
    Object.entries(body.address)
      .map(([key, value]) => `${key}=${String(value)}`)
      .join(', '),
  )
  return [
    'About to create:',
    `  name:    ${escapeForTerminal(body.name)}`,
    `  type:    ${body.type}`,
    ...(hq ? [`  hq:      ${hq}`] : []),
    `  address: ${address || '(empty)'}`,
  ]
}
