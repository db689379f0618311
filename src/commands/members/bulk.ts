// `members add --from-file` with many rows: validate every row first, send the valid ones with
// bounded concurrency, and print one result per input row, in input order, as soon as every
// earlier row is settled (the rows settled by then printed together). A failed row never stops the others; no row is sent twice (POSTs are
// never retried). Ctrl-C stops sending, lets the requests in flight finish, and still prints a
// result for every row, so the user knows exactly which were created. Every row's outcome goes to
// a journal as it happens, so that a run that ended early, in any way, continues with --resume.
import { idText, isAnswerId } from '../../api/answers.js'
import type { AnswerId } from '../../api/answers.js'
import type { Client } from '../../api/client.js'
import { memberCreateSchema, toFieldErrors } from '../../api/schemas.js'
import type { MemberCreate } from '../../api/schemas.js'
import type { Context } from '../../cmdutil/context.js'
import { configDir } from '../../config/dir.js'
import { Journal } from '../../config/journal.js'
import { ExitCode, SilentError, describeError } from '../../errors.js'
import type { InputRow } from '../../io/records-input.js'
import {
  bulkSummary,
  continueLine,
  reasonText,
  startBulkProgress,
  writeBulkResults,
} from '../../io/bulk-output.js'
import { folded, memberEmails } from '../../cmdutil/member-emails.js'

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

// unknown: the request was sent and no answer came back, so the member may exist.
export type RowStatus =
  'created' | 'skipped' | 'failed' | 'unknown' | 'invalid' | 'not_sent' | 'valid'

export type RowResult = {
  row: number
  status: RowStatus
  email?: unknown
  id?: unknown
  error?: {
    status: number | null
    code: string
    message: string
    fields?: Record<string, string[]>
  }
  record?: Record<string, unknown>
  input?: Record<string, unknown>
}

export const RESULT_COLUMNS = ['row', 'status', 'id', 'email', 'error.message']
// What --fields may pick from a result.
export const RESULT_FIELDS = [
  'row',
  'status',
  'id',
  'email',
  'error',
  'error.status',
  'error.code',
  'error.message',
  'error.fields',
  'record',
  'input',
]

type Job = { row: number; input: Record<string, unknown>; body?: MemberCreate; invalid?: RowResult }

export async function addMany(client: Client, ctx: Context, opts: BulkOptions): Promise<void> {
  const jobs = opts.rows.map(({ row, value }) => prepare(row, { ...value, ...opts.overrides }))
  const journal = opts.dryRun
    ? undefined
    : await Journal.open(
        configDir(ctx.io.env),
        {
          kind: 'members add',
          target: `chamber ${opts.chamberId} at ${client.baseUrl}`,
          content: jobs.map((job) => job.body ?? null),
        },
        opts.resume,
      )
  try {
    await run(client, ctx, opts, jobs, journal)
  } catch (error) {
    journal?.close(false)
    throw error
  }
}

async function run(
  client: Client,
  ctx: Context,
  opts: BulkOptions,
  jobs: Job[],
  journal: Journal | undefined,
): Promise<void> {
  const { io, globals } = ctx
  const earlier = journal?.earlier ?? new Map()
  // Rows an earlier run sent without learning the outcome: found by e-mail, or sent again.
  const doubtful = jobs.filter((job) => {
    const status = earlier.get(String(job.row))?.status
    return status === 'sending' || status === 'unknown'
  }).length
  const existing =
    opts.skipExisting || doubtful > 0 ? await memberEmails(client, opts.chamberId) : undefined
  if (journal && earlier.size > 0 && !globals.quiet) {
    const done = [...earlier.values()].filter((e) => e.status === 'created').length
    io.err.write(
      `Resuming: ${done} rows created by an earlier run` +
        (doubtful ? `, ${doubtful} of unknown outcome checked by e-mail` : '') +
        '\n',
    )
  }
  const sendable = jobs.filter((job) => job.body).length
  const started = Date.now()
  const progress = opts.dryRun
    ? undefined
    : await startBulkProgress(io, globals, sendable, 'rows sent')

  let stopping = false
  const stopListening = io.onInterrupt(() => {
    stopping = true
    if (!globals.quiet) io.err.write('\nInterrupted: finishing the requests in flight…\n')
  })

  const settle = (job: Job, status: 'created' | 'skipped', id: AnswerId | null): RowResult => {
    journal?.settle(String(job.row), status, journalId(id))
    return { row: job.row, status, id, email: job.body!.email, input: job.input }
  }
  const send = async (job: Job): Promise<RowResult> => {
    if (job.invalid) return job.invalid
    const item = String(job.row)
    const before = earlier.get(item)
    if (before?.status === 'created' || before?.status === 'skipped') {
      return { row: job.row, status: before.status, id: before.id ?? null, email: job.body!.email }
    }
    const found = existing?.get(folded(job.body!.email))
    if (found !== undefined) {
      if (before?.status === 'sending' || before?.status === 'unknown') {
        return settle(job, 'created', found)
      }
      if (opts.skipExisting) return settle(job, 'skipped', found)
    }
    if (opts.dryRun)
      return { row: job.row, status: 'valid', email: job.body!.email, input: job.input }
    if (stopping)
      return { row: job.row, status: 'not_sent', email: job.input.email, input: job.input }
    journal?.sending(item)
    try {
      const record = await client.members.add(opts.chamberId, job.body!)
      journal?.settle(item, 'created', journalId(record.id))
      return { row: job.row, status: 'created', id: record.id, email: record.email, record }
    } catch (error) {
      const { exitCode, ...described } = describeError(error, ctx.secrets.redact)
      const status = described.code === 'unknown_outcome' ? 'unknown' : 'failed'
      journal?.settle(item, status)
      return { row: job.row, status, email: job.input.email, error: described, input: job.input }
    }
  }

  const results = inOrder(jobs, opts.concurrency, send, (result) => {
    // Ticked as each request settles, so that the last frame says every row was sent.
    if (result.status !== 'invalid' && result.status !== 'not_sent') progress?.tick()
  })
  // Where each row began in the file, for the failures shown on a terminal.
  const lines = new Map(opts.rows.map(({ row, line }) => [row, line]))
  const byLine = opts.rows.some(({ line }) => line !== undefined)
  let counts: Record<string, number>
  try {
    counts = await writeBulkResults(
      io,
      results,
      {
        // A pipe gets one JSON result a line unless a format was asked for: rows differ in shape.
        format: globals.formatChosen || io.stdoutIsTTY ? globals.format : 'ndjson',
        formatChosen: globals.formatChosen,
        verbose: opts.verbose === true,
        columns: RESULT_COLUMNS,
        fields: globals.fields,
        color: globals.color,
        wide: globals.wide,
        quiet: globals.quiet,
        jq: globals.jq,
        failures: {
          columns: [byLine ? 'line' : 'row', 'status', 'email', 'reason'],
          view: (result) => {
            const { row, status, email, error } = result as RowResult
            const at = byLine ? { line: lines.get(row) ?? null } : { row }
            // An invalid row's message already names each field.
            const reason = status === 'invalid' ? error?.message : error && reasonText(error)
            return { ...at, status, email, reason }
          },
        },
      },
      progress,
    )
  } finally {
    stopListening()
    progress?.stop()
  }

  // Invalid rows are left out: sending them again cannot help, and a fixed file is new input.
  const left = (counts.failed ?? 0) + (counts.unknown ?? 0) + (counts.not_sent ?? 0)
  journal?.close(left === 0)
  if (!globals.quiet) {
    io.err.write(
      bulkSummary(counts, opts.dryRun ? undefined : Date.now() - started) +
        (counts.unknown ? ' (check before retrying)' : '') +
        (stopping ? ' (interrupted)' : '') +
        '\n',
    )
  }
  if (journal && left > 0) io.err.write(continueLine(left, 'row'))
  // The results and the summary already say what happened.
  if (stopping) throw new SilentError(ExitCode.interrupted, 'interrupted')
  // Rows that may exist must be checked before anything is re-sent: that outranks failed rows.
  if (counts.unknown) throw new SilentError(ExitCode.network, 'unknown_outcome')
  if (counts.failed || counts.invalid) throw new SilentError(ExitCode.failure, 'partial')
}

// The journal keeps an id as text, or nothing when the server gave none.
function journalId(id: unknown): string | undefined {
  return isAnswerId(id) ? idText(id) : undefined
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
      row,
      status: 'invalid',
      email: input.email,
      error: { status: null, code: 'validation_failed', message, fields },
      input,
    },
  }
}

// Runs `work` over the items with at most `concurrency` at a time and yields the results in item
// order, each as soon as it and every earlier one are done: every result ready by then in one
// batch.
async function* inOrder<T, R>(
  items: T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
  settled: (result: R) => void,
): AsyncGenerator<R[]> {
  // Results not yet handed out, by item index.
  const done = new Map<number, R>()
  let wake = () => {}
  let failed: { error: unknown } | undefined
  let next = 0
  let out = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      const result = await work(items[index]!)
      settled(result)
      done.set(index, result)
      if (index === out) wake()
    }
  }
  const workers = Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
  workers.catch((error: unknown) => {
    failed = { error }
    wake()
  })
  while (out < items.length) {
    if (!done.has(out) && !failed) await new Promise<void>((resolve) => (wake = resolve))
    if (failed) throw failed.error
    const batch: R[] = []
    for (; done.has(out); out++) {
      batch.push(done.get(out)!)
      done.delete(out)
    }
    yield batch
  }
  await workers
}
