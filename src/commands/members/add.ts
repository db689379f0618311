import { describeId } from '../../api/answers.js'
import { checkFields, members } from '../../api/resources/index.js'
import { memberResults } from '../../api/resources/results.js'
import { paginate } from '../../api/paginate.js'
import { checkId, pathSegment } from '../../api/paths.js'
import { memberCreateSchema } from '../../api/schemas.js'
import type { MemberCreate } from '../../api/schemas.js'
import type { Client } from '../../api/client.js'
import type { Context } from '../../cmdutil/context.js'
import { UsageError } from '../../errors.js'
import { confirmOrCancel, promptSearch, promptText } from '../../io/prompt.js'
import type { Choice } from '../../io/prompt.js'
import { InputError, readRecordsInput } from '../../io/records-input.js'
import type { CsvHeader } from '../../io/records-input.js'
import { unknownName } from '../../io/suggest.js'
import { escapeForTerminal } from '../../io/terminal-text.js'
import { printCreated, printDryRun } from '../../cmdutil/write-output.js'
import { asking, checkGiven, validated } from '../../cmdutil/validate.js'
import { requireV2 } from '../../cmdutil/api-version.js'
import { addMany } from './bulk.js'
import { say } from '../../io/wrap.js'

export type Options = {
  chamberId: string
  name?: string
  email?: string
  phone?: string
  membershipType?: string
  fromFile?: string
  concurrency: number
  dryRun?: boolean
  verbose?: boolean
  resume?: boolean
  skipExisting?: boolean
}

// How many existing members to read for the membership types to offer at the prompt.
const TYPE_SAMPLE = 500

export async function add(opts: Options, ctx: Context): Promise<void> {
  checkId(opts.chamberId, 'chamber id')
  const client = await ctx.api({ connections: opts.concurrency })
  requireV2(ctx, client, 'members add')
  const overrides = flagFields(opts)
  const input = opts.fromFile ? await readRecordsInput(opts.fromFile, ctx.io.in) : undefined
  if (input?.kind === 'bulk') {
    checkFields(memberResults, ctx.globals.fields)
    if (input.header) checkHeader(input.header, input.source, overrides)
    return addMany(client, ctx, {
      chamberId: opts.chamberId,
      rows: input.rows,
      overrides,
      concurrency: opts.concurrency,
      dryRun: opts.dryRun === true,
      verbose: opts.verbose,
      resume: opts.resume === true,
      skipExisting: opts.skipExisting === true,
    })
  }
  if (opts.resume || opts.skipExisting) {
    throw new UsageError(
      `${opts.resume ? '--resume' : '--skip-existing'} is for bulk runs: --from-file with many rows`,
    )
  }

  checkFields(members, ctx.globals.fields)
  const body: Record<string, unknown> = { ...input?.value, ...overrides }
  const { globals } = ctx
  const prompting = checkGiven(
    memberCreateSchema,
    body,
    'member',
    [
      body.name === undefined && '--name',
      body.email === undefined && '--email',
      body.membership_type === undefined && '--membership-type',
    ],
    asking(globals.canPrompt, opts.fromFile),
  )
  // Optional fields are asked only of someone already answering for a required one.
  if (prompting) await ask(body, opts.chamberId, client, ctx, !globals.yes)

  const valid = validated(memberCreateSchema, body, 'member')
  const path = `/chambers/${pathSegment(opts.chamberId, 'chamber id')}/members`
  if (opts.dryRun) return printDryRun(ctx, 'POST', client.baseUrl + path, valid)
  // Values that all came from flags or a file were meant: only answers typed here are confirmed.
  if (prompting && !globals.yes) await confirm(valid, opts.chamberId, ctx)
  const member = await client.members.add(opts.chamberId, valid)
  await printCreated(
    ctx,
    member,
    members,
    `Added member ${describeId(member.id)} (${valid.email}) to chamber ${opts.chamberId}`,
  )
}

// The fields every member needs, as the schema says, and the flag that gives each instead.
const REQUIRED = Object.entries(memberCreateSchema.shape)
  .filter(([, schema]) => !schema.safeParse(undefined).success)
  .map(([field]) => field)
const flagOf = (field: string) => `--${field.replace(/_/g, '-')}`

// A CSV header without a required column fails every row the same way: that is one problem of
// the file, reported once (with a did-you-mean for its unknown columns), and nothing is sent.
function checkHeader(header: CsvHeader, source: string, overrides: Record<string, string>) {
  const missing = REQUIRED.filter((f) => !header.columns.includes(f) && !(f in overrides))
  if (!missing.length) return
  const known = Object.keys(memberCreateSchema.shape)
  const unknown = header.columns
    .filter((column) => !known.includes(column))
    .map((column) => `; unknown column ${column} (${unknownName(column, known)})`)
  throw new InputError(
    `${source}: header (line ${header.line}): no ${missing.join(', ')} column: every member ` +
      `needs it (or give ${missing.map(flagOf).join(', ')})${unknown.join('')}`,
    { source, line: header.line },
  )
}

function flagFields(opts: Options): Record<string, string> {
  const fields: Record<string, string | undefined> = {
    name: opts.name,
    email: opts.email,
    phone: opts.phone,
    membership_type: opts.membershipType,
  }
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
  )
}

const emailCheck = (value: string) => {
  const result = memberCreateSchema.shape.email.safeParse(value)
  return result.success || (result.error.issues[0]?.message ?? 'not valid')
}

// Asks only for what flags and files left out.
async function ask(
  body: Record<string, unknown>,
  chamberId: string,
  client: Client,
  ctx: Context,
  askOptional: boolean,
): Promise<void> {
  const { io } = ctx
  if (body.name === undefined) body.name = await promptText(io, { message: 'Name' })
  if (body.email === undefined) {
    body.email = await promptText(io, { message: 'E-mail', validate: emailCheck })
  }
  if (body.phone === undefined && askOptional) {
    const phone = await promptText(io, { message: 'Phone (optional)', required: false })
    if (phone !== '') body.phone = phone
  }
  if (body.membership_type === undefined) {
    const known = await membershipTypes(client, chamberId)
    body.membership_type = known.length
      ? await promptSearch(io, {
          message: 'Membership type (type to filter or enter a new one)',
          source: (term) => {
            const typed = term.trim()
            // The type typed exactly first: Enter takes the first choice shown.
            const choices: Choice<string>[] = known
              .filter((type) => type.toLowerCase().includes(typed.toLowerCase()))
              .sort((a, b) => Number(b === typed) - Number(a === typed))
              .map((value) => ({ value }))
            // The prompt shows every choice escaped (io/prompt.ts).
            if (typed && !known.includes(typed))
              choices.push({ value: typed, name: `${typed} (new)` })
            return choices
          },
        })
      : await promptText(io, { message: 'Membership type' })
  }
}

// The types this chamber's members already have, most used first.
async function membershipTypes(client: Client, chamberId: string): Promise<string[]> {
  const counts = new Map<string, number>()
  const members = paginate((p) => client.members.list(chamberId, p), { limit: TYPE_SAMPLE })
  for await (const member of members) {
    const type = member.membership_type
    if (typeof type === 'string' && type !== '') counts.set(type, (counts.get(type) ?? 0) + 1)
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([type]) => type)
}

async function confirm(body: MemberCreate, chamberId: string, ctx: Context): Promise<void> {
  await say(
    ctx.io,
    [
      // The values may come from a file or the server's types: shown escaped, one line each.
      `About to add to chamber ${escapeForTerminal(chamberId)}:`,
      `  name:            ${escapeForTerminal(body.name)}`,
      `  email:           ${escapeForTerminal(body.email)}`,
      ...(body.phone ? [`  phone:           ${escapeForTerminal(body.phone)}`] : []),
      `  membership_type: ${escapeForTerminal(body.membership_type)}`,
    ].join('\n'),
  )
  await confirmOrCancel(ctx.io, 'Add this member?')
}
