// `members add`: one member from flags, a file and prompts, or many from a file, through the
// generic create paths (src/cmdutil/create); what is its own is here: its prompts and summary.
import { describeId } from '../../api/answers.js'
import { members } from '../../api/resources/index.js'
import { paginate } from '../../api/paginate.js'
import type { Client } from '../../api/client.js'
import { memberCreateSchema } from '../../api/schemas.js'
import type { MemberCreate } from '../../api/schemas.js'
import type { Exactly } from '../../cmdutil/command.js'
import type { Context } from '../../cmdutil/context.js'
import { checkBulkFlags } from '../../cmdutil/create/flags.js'
import type { BulkFlags } from '../../cmdutil/create/flags.js'
import { runCreate } from '../../cmdutil/create/verb.js'
import type { Prompting, CreateVerb } from '../../cmdutil/create/types.js'
import { promptSearch, promptText } from '../../io/prompt.js'
import type { Choice } from '../../io/prompt.js'
import { escapeForTerminal } from '../../io/terminal-text.js'

// The flags members/index.ts declares: one renamed, added or dropped there alone is a type error
// where it calls toOptions.
export type Flags = BulkFlags & {
  name?: string
  email?: string
  phone?: string
  membershipType?: string
  fromFile?: string
  dryRun?: true
}
export type Options = Flags & { chamberId: string }

// The flag rules, before anything runs: the bulk flags need a file.
export function toOptions<F extends Flags>(chamberId: string, flags: Exactly<F, Flags>): Options {
  return checkBulkFlags({ chamberId, ...flags })
}

// How many existing members to read for the membership types to offer at the prompt.
const TYPE_SAMPLE = 500

export async function add(opts: Options, ctx: Context): Promise<void> {
  await runCreate(ADD, { ...opts, parent: opts.chamberId }, ctx)
}

const ADD: CreateVerb<MemberCreate, Options & { parent: string }> = {
  command: 'members add',
  resource: members,
  body: (opts, record) => ({ ...record, ...flagFields(opts) }),
  missing: (body) => [
    body.name === undefined && '--name',
    body.email === undefined && '--email',
    body.membership_type === undefined && '--membership-type',
  ],
  ask,
  summary: async (body, _, { parent }) => ({
    lines: [
      // The values may come from a file or the server's types: shown escaped, one line each.
      `About to add to chamber ${escapeForTerminal(parent ?? '')}:`,
      `  name:            ${escapeForTerminal(body.name)}`,
      `  email:           ${escapeForTerminal(body.email)}`,
      ...(body.phone ? [`  phone:           ${escapeForTerminal(body.phone)}`] : []),
      `  membership_type: ${escapeForTerminal(body.membership_type)}`,
    ],
    question: 'Add this member?',
  }),
  created: (member, valid, chamberId) =>
    `Added member ${describeId(member.id)} (${valid.email}) to chamber ${chamberId}`,
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
  { client, ctx, parent = '', optional }: Prompting,
): Promise<void> {
  const { io } = ctx
  if (body.name === undefined) body.name = await promptText(io, { message: 'Name' })
  if (body.email === undefined) {
    body.email = await promptText(io, { message: 'E-mail', validate: emailCheck })
  }
  if (body.phone === undefined && optional) {
    const phone = await promptText(io, { message: 'Phone (optional)', required: false })
    if (phone !== '') body.phone = phone
  }
  if (body.membership_type === undefined) {
    const known = await membershipTypes(client, parent)
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
