// `seed`: creates a fixture's chambers and members in the order their references need (an HQ
// before its subsidiaries, a chamber before its members), independent records in parallel up to
// --concurrency. A failed chamber fails its dependants and nothing else. Every record's outcome
// goes to a journal as it happens, so that a run that ended early continues with --resume.
import { writeFile } from 'node:fs/promises'
import { checkFields } from '../../api/fields.js'
import type { Client } from '../../api/client.js'
import { paginate } from '../../api/paginate.js'
import { idText, isAnswerId } from '../../api/answers.js'
import type { AnswerId, AnswerRecord } from '../../api/answers.js'
import { ApiError } from '../../api/errors.js'
import { configDir } from '../../config/dir.js'
import { Journal } from '../../config/journal.js'
import type { JournalEntry } from '../../config/journal.js'
import { folded, memberEmails } from '../../cmdutil/member-emails.js'
import type { Context } from '../../cmdutil/context.js'
import { CliError, ExitCode, SilentError, UsageError, describeError } from '../../errors.js'
import { writeJson, writeList } from '../../io/output.js'
import {
  bulkSummary,
  continueLine,
  reasonText,
  startBulkProgress,
  writeBulkResults,
} from '../../io/bulk-output.js'
import { requireV2 } from '../../cmdutil/api-version.js'
import { readFixture } from './fixture.js'
import type { Fixture, FixtureChamber, FixtureMember } from './fixture.js'
import { limiter } from './limit.js'

export type Options = {
  file: string
  concurrency: number
  skipExisting?: boolean
  dryRun?: boolean
  // With --dry-run: check the file only, without a server.
  offline?: boolean
  // Every result on a terminal too, not only the failures.
  verbose?: boolean
  report?: string
  resume?: boolean
}

// unknown: sent, and no answer came back: the record may exist.
type Status = 'created' | 'skipped' | 'failed' | 'unknown'
// The id as the server gave it; its text is what later requests use.
type Outcome = { id: AnswerId | null; status: Status; error: string | null }
export type Report = {
  chambers: Record<string, Outcome>
  members: ({ chamber: string; email: string } & Outcome)[]
  summary: Record<Status, number>
}

const RESULT_COLUMNS = ['kind', 'chamber', 'name', 'email', 'id', 'status', 'error']
const PLAN_COLUMNS = ['step', 'action', 'kind', 'chamber', 'name', 'id']

export async function seed(opts: Options, ctx: Context): Promise<void> {
  if (opts.offline && !opts.dryRun) {
    throw new UsageError('--offline goes with --dry-run: seed cannot create anything offline')
  }
  if (opts.offline && opts.skipExisting) {
    throw new UsageError('--offline cannot tell what exists: drop --skip-existing or --offline')
  }
  const fixture = await readFixture(opts.file, ctx.io.in)
  if (opts.offline) {
    const members = fixture.chambers.reduce((n, chamber) => n + chamber.members.length, 0)
    if (!ctx.globals.quiet) {
      ctx.io.err.write(
        `${opts.file === '-' ? 'stdin' : opts.file} is valid: ${fixture.chambers.length} chambers, ${members} members; nothing was sent\n`,
      )
    }
    return
  }
  checkFields(
    ctx.globals.fields,
    opts.dryRun ? PLAN_COLUMNS : RESULT_COLUMNS,
    opts.dryRun ? 'plan steps' : 'seed results',
  )
  const client = await ctx.api({ connections: opts.concurrency })
  requireV2(client.version, client.baseUrl, 'seed')
  if (opts.dryRun) {
    const existing = opts.skipExisting ? await Existing.load(client) : undefined
    return printPlan(fixture, existing, ctx)
  }

  const started = Date.now()
  const journal = await Journal.open(
    configDir(ctx.io.env),
    { kind: 'seed', target: client.baseUrl, content: fixture.chambers },
    opts.resume === true,
  )
  let report: Awaited<ReturnType<typeof execute>>
  try {
    // Records an earlier run sent without learning the outcome are looked up like existing ones.
    const doubtful = [...journal.earlier.values()].some(
      (e) => e.status === 'sending' || e.status === 'unknown',
    )
    const existing = opts.skipExisting || doubtful ? await Existing.load(client) : undefined
    if (journal.earlier.size > 0 && !ctx.globals.quiet) {
      const done = [...journal.earlier.values()].filter((e) => e.status === 'created').length
      ctx.io.err.write(
        `Resuming: ${done} records created by an earlier run` +
          (doubtful ? '; those of unknown outcome are looked up first' : '') +
          '\n',
      )
    }
    const known = { existing, skip: opts.skipExisting === true, journal }
    report = await execute(fixture, client, known, opts.concurrency, ctx)
  } catch (error) {
    journal.close(false)
    throw error
  }
  const left = report.summary.failed + report.summary.unknown
  journal.close(left === 0)
  // Printed first: a report file that cannot be written must not hide what was created.
  await printReport(fixture, report, ctx, {
    verbose: opts.verbose === true,
    elapsedMs: Date.now() - started,
  })
  if (left > 0) ctx.io.err.write(continueLine(left, 'record'))
  if (opts.report) await saveReport(opts.report, report)
  if (report.interrupted) throw new SilentError(ExitCode.interrupted, 'interrupted')
  // Records that may exist must be checked before a re-run: that outranks failed ones.
  if (report.summary.unknown > 0) throw new SilentError(ExitCode.network, 'unknown_outcome')
  if (report.summary.failed > 0) throw new SilentError(ExitCode.failure, 'partial')
}

// What is already on the server, for --skip-existing: a chamber matches by name (trimmed, any
// letter case) and type (when the server gives one), a subsidiary also by its HQ; a member by
// e-mail in its chamber.
class Existing {
  private readonly members = new Map<string, Promise<Map<string, AnswerId | null>>>()

  private constructor(
    private readonly client: Client,
    private readonly chambers: AnswerRecord[],
  ) {}

  static async load(client: Client): Promise<Existing> {
    const chambers: AnswerRecord[] = []
    for await (const chamber of paginate((p) => client.chambers.list(p), { all: true })) {
      chambers.push(chamber)
    }
    return new Existing(client, chambers)
  }

  // A match without a usable id is no use to its members: it is created anew.
  chamber(body: FixtureChamber['body'], hqId: string | undefined): AnswerId | undefined {
    const name = folded(body.name)
    const id = this.chambers.find(
      (c) =>
        isAnswerId(c.id) &&
        folded(c.name) === name &&
        // A server that does not say a chamber's type leaves the name to decide.
        (c.type === undefined || c.type === null || c.type === body.type) &&
        (body.type !== 'subsidiary' || (isAnswerId(c.hq_id) && idText(c.hq_id) === hqId)),
    )?.id
    return isAnswerId(id) ? id : undefined
  }

  // A member found by e-mail is skipped whether or not the server gave it an id (then null).
  member(chamberId: string, email: string): Promise<AnswerId | null | undefined> {
    let emails = this.members.get(chamberId)
    if (!emails) {
      emails = memberEmails(this.client, chamberId)
      this.members.set(chamberId, emails)
    }
    return emails.then((found) => found.get(folded(email)))
  }
}

type Known = {
  // What the server holds: for --skip-existing, and to find records of unknown outcome.
  existing: Existing | undefined
  skip: boolean
  journal: Journal
}

async function execute(
  fixture: Fixture,
  client: Client,
  { existing, skip, journal }: Known,
  concurrency: number,
  ctx: Context,
): Promise<Report & { interrupted: boolean }> {
  const { io, globals } = ctx
  const byKey = new Map(fixture.chambers.map((chamber) => [chamber.key, chamber]))
  const report: Report = {
    chambers: {},
    members: [],
    summary: { created: 0, skipped: 0, failed: 0, unknown: 0 },
  }
  const total = fixture.chambers.reduce((n, c) => n + 1 + c.members.length, 0)
  const progress = await startBulkProgress(io, globals, total, 'records')
  const record = (outcome: Outcome) => {
    report.summary[outcome.status]++
    progress?.tick()
    return outcome
  }
  let interrupted = false
  const stopListening = io.onInterrupt(() => {
    interrupted = true
    if (!globals.quiet) io.err.write('\nInterrupted: finishing the requests in flight…\n')
  })
  const slot = limiter(concurrency)
  // Sends a request unless the run was interrupted before a slot came free.
  const send = <T>(request: () => Promise<T>) =>
    slot(async () => {
      if (interrupted) throw new CliError('interrupted before it was sent', ExitCode.interrupted)
      return request()
    })
  const failure = (error: unknown): Outcome => {
    const described = describeError(error, ctx.secrets.redact)
    const status = described.code === 'unknown_outcome' ? 'unknown' : 'failed'
    return { id: null, status, error: reasonText(described) }
  }
  // A record whose chamber (or HQ) was not created is not sent.
  const dependant = (key: string, what: string): Outcome => ({
    id: null,
    status: 'failed',
    error:
      report.chambers[key]?.status === 'unknown'
        ? `not sent: the ${what}'s outcome is unknown`
        : `${what} failed`,
  })

  // The text of each chamber's id, for its subsidiaries' hq_id and its members' path.
  const ids = new Map<string, Promise<string | null>>()
  const chamberId = (chamber: FixtureChamber): Promise<string | null> => {
    let id = ids.get(chamber.key)
    if (!id) {
      id = createChamber(chamber).then((outcome) => {
        report.chambers[chamber.key] = record(outcome)
        return outcome.id === null ? null : idText(outcome.id)
      })
      ids.set(chamber.key, id)
    }
    return id
  }
  // Sends a create unless an earlier run settled it, or it exists: created by an earlier run
  // that never learned so (`doubtful`), or skipped with --skip-existing. `found` resolves to
  // undefined for none, null for one the server gave no id.
  const create = async (
    item: string,
    found: (doubtful: boolean) => Promise<AnswerId | null | undefined>,
    request: () => Promise<AnswerId | null>,
  ): Promise<Outcome> => {
    const before: JournalEntry | undefined = journal.earlier.get(item)
    if (before?.status === 'created' || before?.status === 'skipped') {
      return { id: before.id ?? null, status: before.status, error: null }
    }
    const doubtful = before?.status === 'sending' || before?.status === 'unknown'
    let sent = false
    try {
      const id = doubtful || skip ? await found(doubtful) : undefined
      if (id !== undefined) {
        const status = doubtful ? 'created' : 'skipped'
        journal.settle(item, status, id === null ? undefined : idText(id))
        return { id, status, error: null }
      }
      const created = await send(() => {
        sent = true
        journal.sending(item)
        return request()
      })
      journal.settle(item, 'created', created === null ? undefined : idText(created))
      return { id: created, status: 'created', error: null }
    } catch (error) {
      const outcome = failure(error)
      if (sent) journal.settle(item, outcome.status === 'unknown' ? 'unknown' : 'failed')
      return outcome
    }
  }
  const createChamber = async (chamber: FixtureChamber): Promise<Outcome> => {
    const hqId = chamber.hq ? await chamberId(byKey.get(chamber.hq)!) : chamber.body.hq_id
    // (An hq's own `hq_id: null` is no failed HQ.)
    if (chamber.hq !== undefined && hqId === null) return dependant(chamber.hq, 'hq')
    const body = chamber.hq ? { ...chamber.body, hq_id: hqId } : chamber.body
    return create(
      `chamber ${chamber.key}`,
      async () => existing?.chamber(chamber.body, hqId ?? undefined),
      async () => {
        const created = await client.chambers.create(body)
        if (!isAnswerId(created.id)) {
          throw new ApiError(
            'unexpected_response',
            "created, but the server's answer gives no id to add its members and subsidiaries with",
          )
        }
        return created.id
      },
    )
  }
  const addMember = async (chamber: FixtureChamber, member: FixtureMember): Promise<Outcome> => {
    const id = await chamberId(chamber)
    if (id === null) return dependant(chamber.key, 'chamber')
    return create(
      `member ${chamber.key} ${folded(member.body.email)}`,
      // A chamber this run created has no members to skip (but may hold doubtful ones).
      async (doubtful) =>
        doubtful || report.chambers[chamber.key]?.status === 'skipped'
          ? existing?.member(id, member.body.email)
          : undefined,
      async () => {
        const created = await client.members.add(id, member.body)
        return isAnswerId(created.id) ? created.id : null
      },
    )
  }

  try {
    await Promise.all(
      fixture.chambers.flatMap((chamber) => [
        chamberId(chamber),
        ...chamber.members.map(async (member, index) => {
          const outcome = record(await addMember(chamber, member))
          report.members[memberIndex(fixture, chamber, index)] = {
            chamber: chamber.key,
            email: member.body.email,
            ...outcome,
          }
        }),
      ]),
    )
  } finally {
    stopListening()
    progress?.stop()
  }
  // Chambers in file order, however they finished, so that reports of two runs compare.
  const chambers = Object.fromEntries(fixture.chambers.map((c) => [c.key, report.chambers[c.key]!]))
  return { ...report, chambers, interrupted }
}

// Members are reported in file order, whatever order they finished in.
function memberIndex(fixture: Fixture, chamber: FixtureChamber, index: number): number {
  let offset = 0
  for (const c of fixture.chambers) {
    if (c === chamber) return offset + index
    offset += c.members.length
  }
  return offset + index
}

async function saveReport(path: string, report: Report): Promise<void> {
  const { chambers, members, summary } = report
  try {
    await writeFile(path, `${JSON.stringify({ chambers, members, summary }, null, 2)}\n`)
  } catch (error) {
    throw new CliError(`cannot write the report to ${path}: ${(error as Error).message}`)
  }
}

async function printReport(
  fixture: Fixture,
  report: Report,
  ctx: Context,
  { verbose, elapsedMs }: { verbose: boolean; elapsedMs: number },
): Promise<void> {
  const { io, globals } = ctx
  const { chambers, members, summary } = report
  if (globals.format === 'json') {
    await writeJson(io, { chambers, members, summary }, { jq: globals.jq })
  } else {
    await writeBulkResults(io, resultRows(fixture, report), {
      format: globals.format,
      formatChosen: globals.formatChosen,
      verbose,
      columns: RESULT_COLUMNS,
      fields: globals.fields,
      color: globals.color,
      wide: globals.wide,
      quiet: globals.quiet,
      failures: { columns: ['kind', 'chamber', 'name', 'email', 'status', 'error'] },
      jq: globals.jq,
    })
  }
  if (!globals.quiet) {
    io.err.write(
      bulkSummary(summary, elapsedMs) + (summary.unknown ? ' (check before retrying)' : '') + '\n',
    )
  }
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

// --dry-run: the order of creation and what --skip-existing would skip; nothing is sent.
async function printPlan(fixture: Fixture, existing: Existing | undefined, ctx: Context) {
  const byKey = new Map(fixture.chambers.map((chamber) => [chamber.key, chamber]))
  const depth = (chamber: FixtureChamber): number =>
    chamber.hq ? 1 + depth(byKey.get(chamber.hq)!) : 0
  const ordered = [...fixture.chambers].sort((a, b) => depth(a) - depth(b))
  const planned = new Map<string, string | undefined>()
  const steps: Record<string, unknown>[] = []
  const step = (
    kind: string,
    chamber: string,
    name: string,
    existingId: AnswerId | null | undefined,
  ) =>
    steps.push({
      step: steps.length + 1,
      // As terraform plan shows it: what would happen to each record, and why.
      action:
        existingId === undefined
          ? 'create'
          : existingId === null
            ? 'skip (exists)'
            : `skip (exists as ${idText(existingId)})`,
      kind,
      chamber,
      name,
      id: existingId ?? null,
    })
  for (const chamber of ordered) {
    const hqId = chamber.hq ? planned.get(chamber.hq) : (chamber.body.hq_id ?? undefined)
    const found =
      hqId === undefined && chamber.hq ? undefined : existing?.chamber(chamber.body, hqId)
    planned.set(chamber.key, found === undefined ? undefined : idText(found))
    step('chamber', chamber.key, chamber.body.name, found)
    for (const member of chamber.members) {
      const id =
        found !== undefined && existing
          ? await existing.member(idText(found), member.body.email)
          : undefined
      step('member', chamber.key, member.body.email, id)
    }
  }
  await writeList(ctx.io, steps, {
    format: ctx.globals.format,
    columns: PLAN_COLUMNS,
    fields: ctx.globals.fields,
    color: ctx.globals.color,
    jq: ctx.globals.jq,
  })
  if (!ctx.globals.quiet) {
    const creates = steps.filter((s) => s.action === 'create').length
    ctx.io.err.write(
      `Dry run: ${creates} to create, ${steps.length - creates} to skip; nothing was sent\n`,
    )
  }
}
