// `members add --from-file` with many rows: every row is validated first, the chamber is
// confirmed, and the valid rows go through the bulk runner (src/cmdutil/bulk), which sends them
// with bounded concurrency and prints one result per input row, in input order, as soon as every
// earlier row is settled. A failed row never stops the others; no row is sent twice.
import { isAnswerId } from '../../api/answers.js'
import type { AnswerRecord } from '../../api/answers.js'
import type { Client } from '../../api/client.js'
import { memberCreateSchema, toFieldErrors } from '../../api/schemas.js'
import type { MemberCreate } from '../../api/schemas.js'
import { columnsOf } from '../../api/resources/index.js'
import { memberFailures, memberResults } from '../../api/resources/results.js'
import type { Context } from '../../cmdutil/context.js'
import { BulkRun, serverOf } from '../../cmdutil/bulk/run.js'
import type { Outcome } from '../../cmdutil/bulk/run.js'
import { MemberIndex, requireChamber } from '../../cmdutil/bulk/lookups.js'
import { ExitCode, SilentError } from '../../errors.js'
import type { InputRow } from '../../io/records-input.js'
import { bulkSummary, reasonText, writeBulkResults } from '../../io/bulk-output.js'
import type { BulkResultsOptions } from '../../io/bulk-output.js'
import { batchesOf } from '../../io/output.js'
import type { OutputRecord } from '../../io/output.js'
import { say } from '../../io/wrap.js'

export type BulkOptions = {
  chamberId: string
  rows: InputRow[]
  // Flags given with the file: they override the same field of every row.
  overrides: Record<string, string>
  concurrency: number
  dryRun: boolean
  // Every row's result on a terminal too, not only the failures.
  verbose?: boolean
  // Continue the journal of an earlier run of the same input.
  resume: boolean
  // Rows whose e-mail the chamber already has are skipped.
  skipExisting: boolean
}

// A row invalid before sending has `invalid`, its outcome; the others a body to send.
type Job = { row: number; input: Record<string, unknown>; body?: MemberCreate; invalid?: Outcome }
// What a row came to; `valid` in a dry run only.
type RowOutcome = Omit<Outcome, 'status'> & { status: Outcome['status'] | 'valid' }

export async function addMany(client: Client, ctx: Context, opts: BulkOptions): Promise<void> {
  const jobs = opts.rows.map(({ row, value }) => prepare(row, { ...value, ...opts.overrides }))
  await requireChamber(client, opts.chamberId)
  const members = new MemberIndex(client)
  if (opts.dryRun) return dryRun(ctx, opts, jobs, members)
  await BulkRun.run(
    ctx,
    {
      kind: 'members add',
      target: `chamber ${opts.chamberId} at ${serverOf(ctx, client.baseUrl)}`,
      content: jobs.map((job) => job.body ?? null),
      noun: 'row',
      total: jobs.filter((job) => job.body).length,
      progress: 'rows sent',
      concurrency: opts.concurrency,
      resume: opts.resume,
      skipExisting: opts.skipExisting,
    },
    async (run) => {
      const { pMapIterable } = await import('p-map')
      const result = async (job: Job) => {
        const outcome = job.invalid
          ? run.settled(job.invalid)
          : await run.create({
              item: String(job.row),
              find: () => members.find(opts.chamberId, job.body!.email),
              send: async (how) => {
                const record = await client.members.add(opts.chamberId, job.body!, how)
                return { id: isAnswerId(record.id) ? record.id : null, record }
              },
            })
        return resultRow(job, outcome)
      }
      // p-map: --concurrency rows at a time, each result handed on in input order as soon as it
      // and every earlier one are settled; rows wait while results are not being written.
      const results = pMapIterable(jobs, result, { concurrency: opts.concurrency })
      await run.print(batchesOf(results), resultsOptions(ctx, opts))
    },
  )
}

// --dry-run: each row as it would go (`valid`), or why it would not (`failed`, `skipped` with
// --skip-existing); nothing is sent.
async function dryRun(ctx: Context, opts: BulkOptions, jobs: Job[], members: MemberIndex) {
  const counts: Record<string, number> = {}
  const rows: OutputRecord[] = []
  for (const job of jobs) {
    const id =
      job.body && opts.skipExisting ? await members.find(opts.chamberId, job.body.email) : undefined
    const outcome: RowOutcome = job.invalid ?? {
      status: id === undefined ? 'valid' : 'skipped',
      id: id ?? null,
      error: null,
    }
    counts[outcome.status] = (counts[outcome.status] ?? 0) + 1
    rows.push(resultRow(job, outcome))
  }
  await writeBulkResults(ctx.io, rows, resultsOptions(ctx, opts))
  if (!ctx.globals.quiet) await say(ctx.io, bulkSummary(counts))
  if (counts.failed) throw new SilentError(ExitCode.failure, 'partial')
}

// One row's result: the created record, or the input and what went wrong.
function resultRow(job: Job, outcome: RowOutcome): OutputRecord {
  const { status, id, error, record } = outcome
  const made = status === 'created' || status === 'skipped'
  return {
    row: job.row,
    status,
    ...(made ? { id } : {}),
    email: (record as AnswerRecord | undefined)?.email ?? job.input.email,
    ...(error ? { error } : {}),
    ...(record ? { record } : {}),
    ...(made ? {} : { input: job.input }),
  }
}

function resultsOptions(ctx: Context, opts: BulkOptions): BulkResultsOptions {
  const { io, globals } = ctx
  // Where each row began in the file, for the failures shown on a terminal.
  const lines = new Map(opts.rows.map(({ row, line }) => [row, line]))
  const byLine = opts.rows.some(({ line }) => line !== undefined)
  return {
    // A pipe gets one JSON result a line unless a format was asked for: rows differ in shape.
    format: globals.formatChosen || io.stdoutIsTTY ? globals.format : 'ndjson',
    formatChosen: globals.formatChosen,
    verbose: opts.verbose === true,
    columns: columnsOf(memberResults, globals.fields),
    fields: globals.fields,
    color: globals.color,
    wide: globals.wide,
    quiet: globals.quiet,
    jq: globals.jq,
    failures: {
      columns: columnsOf(
        memberFailures,
        memberFailures.columns.map((c) => (c === 'row' && byLine ? 'line' : c)),
      ),
      view: (result) => {
        const { row, status, email, error } = result as {
          row: number
          status: string
          email: unknown
          error?: { code: string; message: string; fields?: Record<string, string[]> }
        }
        const at = byLine ? { line: lines.get(row) ?? null } : { row }
        // An invalid row's message already names each field.
        const reason = error?.code === 'invalid' ? error.message : error && reasonText(error)
        return { ...at, status, email, reason }
      },
    },
  }
}

function prepare(row: number, input: Record<string, unknown>): Job {
  const parsed = memberCreateSchema.safeParse(input)
  if (parsed.success) return { row, input, body: parsed.data }
  const fields = toFieldErrors(parsed.error)
  const message = Object.entries(fields)
    .map(([field, messages]) => `${field} ${messages.join(', ')}`)
    .join('; ')
  return {
    row,
    input,
    invalid: {
      status: 'failed',
      id: null,
      error: { status: null, code: 'invalid', message, fields },
      final: true,
    },
  }
}
