// `seed`: creates a fixture's chambers and members in the order their references need (an HQ
// before its subsidiaries, a chamber before its members), independent records in parallel up to
// --concurrency, through the bulk runner (src/cmdutil/bulk), which keeps the journal and decides
// what an earlier run's records mean. A failed chamber fails its dependants and nothing else.
import {
  chambers as chamberResource,
  checkFields,
  columnsOf,
  members,
} from '../../api/resources/index.js'
import type { MemberCreate } from '../../api/schemas.js'
import { seedFailures, seedPlan, seedResults } from '../../api/resources/results.js'
import type { Client } from '../../api/client.js'
import { idText, isAnswerId } from '../../api/answers.js'
import { ApiError } from '../../api/errors.js'
import { emailKey } from '../../api/email.js'
import { BulkRun, NOT_SENT, serverOf } from '../../cmdutil/bulk/run.js'
import type { Outcome, RunCounts } from '../../cmdutil/bulk/run.js'
import { ChamberIndex, RecordIndex, requireChamber } from '../../cmdutil/bulk/lookups.js'
import type { Exactly } from '../../cmdutil/command.js'
import type { Context } from '../../cmdutil/context.js'
import type { BulkFlags } from '../../cmdutil/create/flags.js'
import { writeJson, writeList } from '../../io/output.js'
import { escapeForTerminal } from '../../io/terminal-text.js'
import { reasonText } from '../../io/bulk-output.js'
import { UsageError } from '../../errors.js'
import { count } from '../../util.js'
import { requireV2 } from '../../cmdutil/api-version.js'
import { readFixture } from '../../cmdutil/fixture/read.js'
import { checkReport, saveReport } from './report.js'
import type { Fixture, FixtureChamber, FixtureMember } from '../../cmdutil/fixture/read.js'
import { compareDirectory } from '../../cmdutil/fixture/compare.js'
import type { ChamberComparison } from '../../cmdutil/fixture/compare.js'
import { say } from '../../io/wrap.js'

// The flags seed/index.ts declares: one renamed, added or dropped there alone is a type error
// where it calls toOptions.
export type Flags = BulkFlags & { dryRun?: true; offline?: true; report?: string }
export type Options = Flags & { file: string }

// The rules of seed's flags, before it runs.
export function toOptions<F extends Flags>(file: string, flags: Exactly<F, Flags>): Options {
  if (flags.offline && !flags.dryRun) {
    throw new UsageError('--offline goes with --dry-run: seed cannot create anything offline')
  }
  if (flags.offline && flags.skipExisting) {
    throw new UsageError('--offline cannot tell what exists: drop --skip-existing or --offline')
  }
  return { file, ...flags }
}

// The id as the server gave it; its text is what later requests use.
type Result = Pick<Outcome, 'id' | 'status' | 'error'>
export type Report = {
  chambers: Record<string, Result>
  members: ({ chamber: string; email: string } & Result)[]
  // The run's counts (bulk-output.ts's vocabulary): `created_earlier` and `invalid` beside the
  // statuses.
  summary: RunCounts
}

export async function seed(opts: Options, ctx: Context): Promise<void> {
  if (opts.report !== undefined) checkReport(opts.report, opts.file, ctx.io.in)
  const fixture = await readFixture(opts.file, ctx.io.in)
  if (opts.offline) {
    const members = fixture.chambers.reduce((n, chamber) => n + chamber.members.length, 0)
    if (!ctx.globals.quiet) {
      await say(
        ctx.io,
        `${opts.file === '-' ? 'stdin' : opts.file} is valid: ${count(fixture.chambers.length)} chambers, ${count(members)} members; nothing was sent`,
      )
    }
    return
  }
  checkFields(opts.dryRun ? seedPlan : seedResults, ctx.globals.fields)
  const client = await ctx.api({ connections: opts.concurrency })
  requireV2(ctx, client, 'seed')
  // The chambers the file names by id must exist before anything is sent.
  const given = new Map<string, string>()
  for (const chamber of fixture.chambers) {
    const hqId = chamber.body.hq_id
    if (typeof hqId === 'string' && !given.has(hqId)) given.set(hqId, `${chamber.path}.hq_id`)
  }
  for (const [id, path] of given) await requireChamber(client, id, path)
  if (opts.dryRun) return printPlan(fixture, client, opts.skipExisting === true, ctx)
  const existing = await loadExisting(client)

  let report: Report | undefined
  await BulkRun.run(
    ctx,
    {
      kind: 'seed',
      target: serverOf(ctx, client.baseUrl),
      content: fixture.chambers,
      noun: 'record',
      total: fixture.chambers.reduce((n, c) => n + 1 + c.members.length, 0),
      progress: 'records',
      concurrency: opts.concurrency,
      resume: opts.resume === true,
      skipExisting: opts.skipExisting === true,
      notice: ({ skipping, made }) =>
        skipping ? undefined : sameNames(fixture, existing, (c) => made(chamberItem(c))),
    },
    async (run) => {
      report = await execute(fixture, client, existing, run)
      await printReport(fixture, report, run, ctx, opts.verbose === true)
    },
    async () => {
      if (opts.report && report) await saveReport(opts.report, report)
    },
  )
}

const chamberItem = (chamber: FixtureChamber) => `chamber ${chamber.key}`

// The one note of a run about to create chambers whose name the server already has (a second
// seed of the same file, or a name taken by someone else): the run goes on.
function sameNames(
  fixture: Fixture,
  existing: Existing,
  made: (chamber: FixtureChamber) => boolean,
): string | undefined {
  const named = fixture.chambers.filter((c) => !made(c) && existing.chambers.named(c.body.name))
  if (named.length === 0) return undefined
  const shown = named.slice(0, 2).map((c) => `"${escapeForTerminal(c.body.name)}"`)
  const more = named.length > 2 ? ` and ${named.length - 2} more` : ''
  const one = named.length === 1
  return (
    `note: the server already has ${one ? 'a chamber' : 'chambers'} named ${shown.join(', ')}${more}; ` +
    `creating ${one ? 'it' : 'them'} again (--skip-existing skips chambers that exist)`
  )
}

// What is already on the server: chambers by name, type and HQ; members by e-mail in their
// chamber (src/cmdutil/bulk/lookups.ts).
type Existing = { chambers: ChamberIndex; members: RecordIndex<MemberCreate> }

async function loadExisting(client: Client): Promise<Existing> {
  return {
    chambers: await ChamberIndex.load(client),
    members: new RecordIndex(client, members.create),
  }
}

// A record whose chamber (or HQ) was not created is not sent: failed with it, or not sent when
// its outcome is unknown (a --resume looks that up, then sends it).
function dependant(parent: Outcome, what: string): Outcome {
  if (parent.status === 'not_sent') return NOT_SENT
  const unknown = parent.status === 'unknown'
  return {
    status: unknown ? 'not_sent' : 'failed',
    id: null,
    error: {
      status: null,
      code: 'dependency',
      message: unknown
        ? `not sent: the ${what}'s outcome is unknown`
        : `not sent: the ${what} failed`,
      fields: {},
    },
    final: parent.final,
  }
}

async function execute(
  fixture: Fixture,
  client: Client,
  existing: Existing,
  run: BulkRun,
): Promise<Report> {
  const byKey = new Map(fixture.chambers.map((chamber) => [chamber.key, chamber]))
  // Each chamber's outcome, for its subsidiaries' hq_id and its members' path.
  const outcomes = new Map<string, Promise<Outcome>>()
  const chamberOutcome = (chamber: FixtureChamber): Promise<Outcome> => {
    let outcome = outcomes.get(chamber.key)
    if (!outcome) {
      outcome = createChamber(chamber)
      outcomes.set(chamber.key, outcome)
    }
    return outcome
  }
  const createChamber = async (chamber: FixtureChamber): Promise<Outcome> => {
    let body = chamber.body
    if (chamber.hq) {
      const hq = await chamberOutcome(byKey.get(chamber.hq)!)
      if (hq.id === null) return run.settled(dependant(hq, 'hq'))
      body = { ...body, hq_id: idText(hq.id) }
    }
    const hqId = body.hq_id ?? undefined
    return run.create({
      item: chamberItem(chamber),
      find: async (recorded) => existing.chambers.find(chamber.body, hqId, recorded),
      send: async (how) => {
        const record = await chamberResource.create.send(client, undefined, body, how)
        if (!isAnswerId(record.id)) {
          throw new ApiError(
            'unexpected_response',
            "created, but the server's answer gives no id to add its members and subsidiaries with",
          )
        }
        return { id: record.id, record }
      },
    })
  }

  // Every chamber first, in file order (a subsidiary waits for its HQ), then the members.
  const chambers = fixture.chambers.map(async (chamber) => [
    chamber.key,
    result(await chamberOutcome(chamber)),
  ])
  const members = fixture.chambers.flatMap((chamber) =>
    chamber.members.map(async (member) => {
      const parent = await chamberOutcome(chamber)
      const outcome =
        parent.id === null
          ? run.settled(dependant(parent, 'chamber'))
          : await run.createDeclared(
              existing.members,
              `member ${chamber.key} ${emailKey(member.body.email)}`,
              idText(parent.id),
              member.body,
            )
      return { chamber: chamber.key, email: member.body.email, ...result(outcome) }
    }),
  )
  // Chambers and members in file order, however they finished, so that reports of two runs
  // compare.
  return {
    chambers: Object.fromEntries(await Promise.all(chambers)) as Report['chambers'],
    members: await Promise.all(members),
    summary: run.summary,
  }
}

function result({ id, status, error }: Outcome): Result {
  return { id, status, error }
}

async function printReport(
  fixture: Fixture,
  report: Report,
  run: BulkRun,
  ctx: Context,
  verbose: boolean,
): Promise<void> {
  const { io, globals } = ctx
  if (!run.canPrint) return
  if (globals.format === 'json') {
    const { chambers, members, summary } = report
    return writeJson(io, { chambers, members, summary }, { jq: globals.jq })
  }
  await run.print(resultRows(fixture, report), {
    format: globals.format,
    formatChosen: globals.formatChosen,
    verbose,
    columns: columnsOf(seedResults, globals.fields),
    fields: globals.fields,
    color: globals.color,
    wide: globals.wide,
    quiet: globals.quiet,
    failures: {
      columns: columnsOf(seedFailures),
      view: (row) => ({ ...row, reason: row.error ? reasonText(row.error as never) : null }),
    },
    jq: globals.jq,
  })
}

// One result per record of the fixture, in file order: each chamber, then its members.
function* resultRows(fixture: Fixture, report: Report) {
  let m = 0
  for (const chamber of fixture.chambers) {
    yield {
      kind: 'chamber',
      chamber: chamber.key,
      name: chamber.body.name,
      ...report.chambers[chamber.key],
    }
    for (const member of chamber.members) {
      yield { kind: 'member', name: member.body.name, ...report.members[m++], chamber: chamber.key }
    }
  }
}

// --dry-run: the order of creation, from diff's comparison of the fixture with the server
// (src/cmdutil/fixture/compare.ts), so that the plan and `diff` never disagree: a chamber diff
// finds is skipped with --skip-existing when seed's own match takes it (the same type and HQ),
// or created again without it; one that differs in type or HQ is created anew; a member is
// skipped when its chamber is and the server has its e-mail there. Nothing is sent.
async function printPlan(
  fixture: Fixture,
  client: Client,
  skipExisting: boolean,
  ctx: Context,
): Promise<void> {
  const byKey = new Map(fixture.chambers.map((chamber) => [chamber.key, chamber]))
  const depth = (chamber: FixtureChamber): number =>
    chamber.hq ? 1 + depth(byKey.get(chamber.hq)!) : 0
  const compared = new Map<string, ChamberComparison>()
  const found = new Map<FixtureMember, string>()
  const skips = (c: ChamberComparison) => skipExisting && c.seedSkips
  await compareDirectory(
    client,
    fixtureOf(fixture),
    { members: skips },
    {
      chamber: (result) => void compared.set(result.chamber.key, result),
      member: ({ fixture, server }) => {
        if (fixture && server && isAnswerId(server.id)) found.set(fixture, idText(server.id))
      },
      chamberDone: () => {},
      onlyOnServer: () => {},
    },
  )
  const ordered = [...fixture.chambers].sort((a, b) => depth(a) - depth(b))
  const steps: Record<string, unknown>[] = []
  const step = (kind: string, chamber: string, name: string, action: string, id?: string) =>
    steps.push({ step: steps.length + 1, action, kind, chamber, name, id: id ?? null })
  for (const chamber of ordered) {
    const result = compared.get(chamber.key)!
    const match = result.match?.id
    const skipped = skips(result)
    // As terraform plan shows it: what would happen to each record, and why.
    const action = skipped
      ? `skip (exists as ${match})`
      : match === undefined
        ? 'create'
        : result.seedSkips
          ? `create again (exists as ${match})`
          : `create (differs from ${match})`
    step('chamber', chamber.key, chamber.body.name, action, skipped ? match : undefined)
    for (const member of chamber.members) {
      const id = skipped ? found.get(member) : undefined
      step('member', chamber.key, member.body.email, id ? `skip (exists as ${id})` : 'create', id)
    }
  }
  await writeList(ctx.io, steps, {
    format: ctx.globals.format,
    columns: columnsOf(seedPlan, ctx.globals.fields),
    fields: ctx.globals.fields,
    color: ctx.globals.color,
    jq: ctx.globals.jq,
  })
  if (!ctx.globals.quiet) {
    const creates = steps.filter((s) => String(s.action).startsWith('create')).length
    await say(
      ctx.io,
      `Dry run: ${count(creates)} to create, ${count(steps.length - creates)} to skip; nothing was sent`,
    )
  }
}

async function* fixtureOf(fixture: Fixture): AsyncGenerator<FixtureChamber> {
  yield* fixture.chambers
}
