// Many records from one file (`members add --from-file` with many rows): every row is validated
// first, the chamber they go into is confirmed, and the valid rows go through the bulk runner
// (src/cmdutil/bulk), which sends them with bounded concurrency and prints one result per input
// row, in input order, as soon as every earlier row is settled. A failed row never stops the
// others; no row is sent twice.
import type { AnswerId, AnswerRecord } from '../../api/answers.js'
import type { Client } from '../../api/client.js'
import { toFieldErrors } from '../../api/schemas.js'
import { columnsOf } from '../../api/resources/index.js'
import type { Creates, CreateSchema } from '../../api/resources/index.js'
import { ExitCode, SilentError } from '../../errors.js'
import { bulkSummary, reasonText, writeBulkResults } from '../../io/bulk-output.js'
import type { BulkResultsOptions, Counts } from '../../io/bulk-output.js'
import { batchesOf } from '../../io/output.js'
import type { OutputRecord } from '../../io/output.js'
import { InputError } from '../../io/records-input.js'
import type { CsvHeader, InputRow, RecordsInput } from '../../io/records-input.js'
import { unknownName } from '../../io/suggest.js'
import { say } from '../../io/wrap.js'
import { RecordIndex, requireChamber } from '../bulk/lookups.js'
import { BulkRun, serverOf } from '../bulk/run.js'
import type { Outcome } from '../bulk/run.js'
import type { Context } from '../context.js'
import type { Body, CreateOptions, CreateVerb } from './types.js'

// A row invalid before sending has `invalid`, its outcome; the others a body to send.
type Job<B> = { row: number; input: Body; body?: B; invalid?: Outcome }
// What a row came to; `valid` in a dry run only.
type RowOutcome = Omit<Outcome, 'status'> & { status: Outcome['status'] | 'valid' }

export async function createMany<B extends Body, O extends CreateOptions, A>(
  client: Client,
  ctx: Context,
  verb: CreateVerb<B, O, A>,
  opts: O,
  input: Extract<RecordsInput, { kind: 'bulk' }>,
): Promise<void> {
  const { create } = verb.resource
  const { parent } = opts
  const concurrency = opts.concurrency ?? 1
  // Flags given with the file override the same field of every row.
  const overrides = verb.body(opts, {})
  const schema = await create.schema()
  if (input.header) checkHeader(create.noun, schema, input.header, input.source, overrides)
  const jobs = input.rows.map(({ row, value }) => prepare(schema, row, verb.body(opts, value)))
  if (create.under && parent !== undefined) await requireChamber(client, parent)
  const index = new RecordIndex(client, create)
  const key = (job: Job<B>) => job.body?.[create.key.field]
  const results = resultsOptions(ctx, create, opts.verbose === true, input.rows)
  if (opts.dryRun) {
    const find = (job: Job<B>) =>
      job.body && opts.skipExisting ? index.find(parent, key(job)) : Promise.resolve(undefined)
    return dryRun(ctx, create, jobs, results, find)
  }
  const server = serverOf(ctx, client.baseUrl)
  await BulkRun.run(
    ctx,
    {
      kind: verb.command,
      target: create.under ? `${create.under} ${parent} at ${server}` : server,
      content: jobs.map((job) => job.body ?? null),
      noun: 'row',
      total: jobs.filter((job) => job.body).length,
      progress: 'rows',
      concurrency,
      resume: opts.resume === true,
      skipExisting: opts.skipExisting === true,
      invalid: jobs.filter((job) => job.invalid).length,
    },
    async (run) => {
      const { pMapIterable } = await import('p-map')
      const result = async (job: Job<B>) => {
        const outcome = job.invalid
          ? run.settled(job.invalid)
          : await run.createDeclared(index, String(job.row), parent, job.body!)
        return resultRow(create, job, outcome)
      }
      // p-map: --concurrency rows at a time, each result handed on in input order as soon as it
      // and every earlier one are settled; rows wait while results are not being written.
      await run.print(batchesOf(pMapIterable(jobs, result, { concurrency })), results)
    },
  )
}

// --dry-run: each row as it would go (`valid`), or why it would not (`failed`, `skipped` with
// --skip-existing); nothing is sent.
async function dryRun<B extends Body>(
  ctx: Context,
  create: Creates<B>,
  jobs: Job<B>[],
  results: BulkResultsOptions,
  find: (job: Job<B>) => Promise<AnswerId | null | undefined>,
) {
  const counts: Counts = {}
  const rows: OutputRecord[] = []
  for (const job of jobs) {
    const id = await find(job)
    const outcome: RowOutcome = job.invalid ?? {
      status: id === undefined ? 'valid' : 'skipped',
      id: id ?? null,
      error: null,
    }
    const key = job.invalid ? 'invalid' : outcome.status
    counts[key] = (counts[key] ?? 0) + 1
    rows.push(resultRow(create, job, outcome))
  }
  await writeBulkResults(ctx.io, rows, results)
  if (!ctx.globals.quiet) await say(ctx.io, bulkSummary(counts))
  if (counts.invalid) throw new SilentError(ExitCode.failure, 'partial')
}

// One row's result: the created record, or the input and what went wrong.
function resultRow<B extends Body>(
  create: Creates<B>,
  job: Job<B>,
  outcome: RowOutcome,
): OutputRecord {
  const { status, id, error, record } = outcome
  const made = status === 'created' || status === 'skipped'
  const { field } = create.key
  return {
    row: job.row,
    status,
    ...(made ? { id } : {}),
    [field]: (record as AnswerRecord | undefined)?.[field] ?? job.input[field],
    ...(error ? { error } : {}),
    ...(record ? { record } : {}),
    ...(made ? {} : { input: job.input }),
  }
}

function resultsOptions<B extends Body>(
  ctx: Context,
  create: Creates<B>,
  verbose: boolean,
  rows: InputRow[],
): BulkResultsOptions {
  const { io, globals } = ctx
  const { results, failures } = create.bulk!
  const { field } = create.key
  // Where each row began in the file, for the failures shown on a terminal.
  const lines = new Map(rows.map(({ row, line }) => [row, line]))
  const byLine = rows.some(({ line }) => line !== undefined)
  return {
    // A pipe gets one JSON result a line unless a format was asked for: rows differ in shape.
    format: globals.formatChosen || io.stdoutIsTTY ? globals.format : 'ndjson',
    formatChosen: globals.formatChosen,
    verbose,
    columns: columnsOf(results, globals.fields),
    fields: globals.fields,
    color: globals.color,
    wide: globals.wide,
    quiet: globals.quiet,
    jq: globals.jq,
    failures: {
      columns: columnsOf(
        failures,
        failures.columns.map((c) => (c === 'row' && byLine ? 'line' : c)),
      ),
      view: (result) => {
        const { row, status, error } = result as {
          row: number
          status: string
          error?: { code: string; message: string; fields?: Record<string, string[]> }
        }
        const at = byLine ? { line: lines.get(row) ?? null } : { row }
        // An invalid row's message already names each field; it is shown `invalid`, as the
        // summary counts it (its result's status is `failed`, with the code `invalid`).
        const invalid = error?.code === 'invalid'
        const reason = invalid ? error.message : error && reasonText(error)
        return { ...at, status: invalid ? 'invalid' : status, [field]: result[field], reason }
      },
    },
  }
}

function prepare<B extends Body>(schema: CreateSchema<B>, row: number, input: Body): Job<B> {
  const parsed = schema.safeParse(input)
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

const flagOf = (field: string) => `--${field.replace(/_/g, '-')}`

// A CSV header without a required column fails every row the same way: that is one problem of
// the file, reported once (with a did-you-mean for its unknown columns), and nothing is sent.
function checkHeader<B>(
  noun: string,
  schema: CreateSchema<B>,
  header: CsvHeader,
  source: string,
  overrides: Body,
): void {
  const known = Object.keys(schema.shape)
  // The fields every record needs, as the schema says, and the flag that gives each instead.
  const required = Object.entries(schema.shape)
    .filter(([, schema]) => !schema.safeParse(undefined).success)
    .map(([field]) => field)
  const missing = required.filter((f) => !header.columns.includes(f) && !(f in overrides))
  if (!missing.length) return
  const unknown = header.columns
    .filter((column) => !known.includes(column))
    .map((column) => `; unknown column ${column} (${unknownName(column, known)})`)
  throw new InputError(
    `${source}: header (line ${header.line}): no ${missing.join(', ')} column: every ` +
      `${noun} needs it (or give ${missing.map(flagOf).join(', ')})${unknown.join('')}`,
    { source, line: header.line },
  )
}
