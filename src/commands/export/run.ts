// `export`: the chambers of a directory (all, those named, or those of a type or status) and with
// --members their members, as a seed fixture (contract §7) on stdout: export → seed → export
// gives the same bytes. Chambers are read whole first (they are few, and keys, references and
// order need them all); members are written as their pages arrive, so memory stays flat.
import type { AnswerRecord } from '../../api/answers.js'
import type { Client } from '../../api/client.js'
import { ApiError } from '../../api/errors.js'
import { pages, paginate } from '../../api/paginate.js'
import { checkId, idProblem } from '../../api/paths.js'
import type { Exactly } from '../../cmdutil/command.js'
import type { Context, Globals } from '../../cmdutil/context.js'
import { CliError, ExitCode, UsageError } from '../../errors.js'
import { startProgress } from '../../io/progress.js'
import { requireV2, usedFlag } from '../../cmdutil/api-version.js'
import { chamberDraft, memberEntry } from './entries.js'
import type { ChamberDraft, MemberEntry } from './entries.js'
import { Keys } from './keys.js'
import { NameOrder, orderChambers } from './order.js'
import { Report, count } from './report.js'
import { jsonWriter, yamlWriter } from './writer.js'
import type { FixtureWriter } from './writer.js'

export type Flags = { type?: string; status?: string; members?: boolean }
// chamberIds: those named, each once; none for every chamber (or those of --type and --status).
export type Options = Flags & { chamberIds: string[] }

const V2_FLAGS = { type: '--type', status: '--status' }
// Named chambers are read this many at a time.
const GET_CONCURRENCY = 8
// Members between two updates of the progress note.
const PROGRESS_EVERY = 100

export function toOptions<F extends Flags>(
  chamberIds: string[],
  flags: Exactly<F, Flags>,
  globals: Pick<Globals, 'jq' | 'fields' | 'formatChosen' | 'format'>,
): Options {
  checkOutput(globals)
  const ids = [...new Set(chamberIds.map((id) => checkId(id, 'chamber id')))]
  if (ids.length > 0 && (flags.type !== undefined || flags.status !== undefined)) {
    throw new UsageError('give chamber ids or --type/--status, not both')
  }
  return { chamberIds: ids, type: flags.type, status: flags.status, members: flags.members }
}

export async function exportFixture(opts: Options, ctx: Context): Promise<void> {
  const { io, globals } = ctx
  const ids = opts.chamberIds
  const client = await ctx.api()
  requireV2(ctx, client, usedFlag(opts, V2_FLAGS))
  const records = ids.length ? await namedChambers(client, ids) : await allChambers(client, opts)

  const report = new Report()
  const drafts: ChamberDraft[] = []
  for (const record of records) {
    const converted = chamberDraft(record)
    if ('problem' in converted) report.chamber(record, converted.problem)
    else {
      drafts.push(converted.entry)
      report.fields(converted.leftOut)
    }
  }
  const chambers = withKeys(orderChambers(drafts))

  const writer = globals.format === 'json' ? jsonWriter(io.out) : await yamlWriter(io.out)
  // Only when the fixture goes to a file or a pipe: on a terminal it would cut into the YAML.
  const progress = io.stdoutIsTTY ? undefined : startProgress(io, globals)
  try {
    for (const [index, chamber] of chambers.entries()) {
      const show = () =>
        progress?.update(
          `exporting chamber ${index + 1} of ${chambers.length}` +
            (opts.members ? `, ${count(report.members, 'member')}` : ''),
        )
      show()
      await writer.chamber(chamber.entry)
      if (opts.members) await writeMembers(client, chamber, writer, report, show)
    }
    await writer.end()
  } finally {
    progress?.stop()
  }
  await report.print(ctx, chambers.length, opts.members === true)
}

// Only the fixture formats: YAML (whatever the default format) or JSON.
function checkOutput(globals: Pick<Globals, 'jq' | 'fields' | 'formatChosen' | 'format'>): void {
  if (globals.jq) {
    throw new UsageError(
      'export writes the fixture as it reads it and cannot run --jq over it: pipe export --json into jq',
    )
  }
  if (globals.fields) {
    throw new UsageError('export writes every field seed can send; --fields does not apply')
  }
  if (globals.formatChosen && globals.format !== 'json' && globals.format !== 'yaml') {
    throw new UsageError(
      `export writes a fixture in YAML, or in JSON with --json; not -o ${globals.format}`,
    )
  }
}

// Every named chamber, or exit 3 naming each one the server does not know.
async function namedChambers(client: Client, ids: string[]): Promise<AnswerRecord[]> {
  const { default: pLimit } = await import('p-limit')
  const slot = pLimit(GET_CONCURRENCY)
  const missing: string[] = []
  const found = await Promise.all(
    ids.map((id) =>
      slot(async () => {
        try {
          return await client.chambers.get(id)
        } catch (error) {
          if (!(error instanceof ApiError && error.code === 'not_found')) throw error
          missing.push(id)
          return undefined
        }
      }),
    ),
  )
  if (missing.length > 0) {
    const sorted = ids.filter((id) => missing.includes(id))
    throw new CliError(
      `no chamber ${sorted.join(', ')} on ${client.baseUrl}; nothing was exported`,
      ExitCode.notFound,
      'not_found',
    )
  }
  return found.filter((record): record is AnswerRecord => record !== undefined)
}

async function allChambers(client: Client, opts: Options): Promise<AnswerRecord[]> {
  const filters = { type: opts.type, status: opts.status }
  const records: AnswerRecord[] = []
  for await (const record of paginate((p) => client.chambers.list({ ...filters, ...p }), {
    all: true,
  })) {
    records.push(record)
  }
  return records
}

type KeyedChamber = { id: string | undefined; key: string; entry: Record<string, unknown> }

// Keys in file order, and `hq: <key>` for an hq in this file, `hq_id` for one elsewhere.
function withKeys(drafts: readonly ChamberDraft[]): KeyedChamber[] {
  const keys = new Keys()
  const hqKeys = new Map<string, string>()
  const keyed = drafts.map((draft) => {
    const key = keys.take(draft.name)
    if (draft.type === 'hq' && draft.id !== undefined && !hqKeys.has(draft.id)) {
      hqKeys.set(draft.id, key)
    }
    return { draft, key }
  })
  return keyed.map(({ draft, key }) => {
    const hq = draft.hqId === undefined ? undefined : hqKeys.get(draft.hqId)
    const reference =
      draft.hqId === undefined ? {} : hq === undefined ? { hq_id: draft.hqId } : { hq }
    return {
      id: draft.id,
      key,
      entry: { key, name: draft.name, type: draft.type, ...reference, address: draft.address },
    }
  })
}

async function writeMembers(
  client: Client,
  chamber: KeyedChamber,
  writer: FixtureWriter,
  report: Report,
  show: () => void,
): Promise<void> {
  const id = chamber.id
  if (id === undefined || idProblem(id) !== undefined) {
    report.unread(chamber.key)
    return
  }
  // Sorted by name where the API can (v2), so that the order is the data's own.
  const sort = client.version === 'v1' ? undefined : 'name'
  const order = new NameOrder<MemberEntry>()
  // A page at a time: its members are made entries, put in order and written with one write.
  const write = async (members: MemberEntry[]) => {
    if (members.length === 0) return
    await writer.members(members)
    const before = report.members
    report.members += members.length
    if (Math.floor(report.members / PROGRESS_EVERY) > Math.floor(before / PROGRESS_EVERY)) show()
  }
  for await (const records of pages((p) => client.members.list(id, { ...p, sort }), {
    all: true,
  })) {
    const entries: MemberEntry[] = []
    for (const record of records) {
      const converted = memberEntry(record)
      if ('problem' in converted) report.member(record, chamber.key, converted.problem)
      else {
        report.fields(converted.leftOut)
        entries.push(converted.entry)
      }
    }
    await write(order.next(entries))
  }
  await write(order.end())
}
