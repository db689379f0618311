// The one bulk runner, shared by `members add --from-file` and `seed` (contract §3 "Bulk runs",
// §4 "Bulk" and "Ending early"). A command hands it one task per record (its journal item, how
// to find it on the server, how to create it); the runner owns everything else:
// - the journal: what a plain re-run, --resume and --skip-existing do with an earlier run's;
// - the decision per record: confirmed on the server, looked up, skipped, not sent again, sent;
// - the pace (pace.ts): at most --concurrency requests in flight, fewer while the server answers
//   429, none while it asked to wait; only the request itself holds a slot, so a record waiting
//   for its chamber or for a look-up holds none, and a row answered 429 is sent again;
// - ending early, the same for every cause (SIGINT, SIGTERM, SIGHUP, stdout closed or failing,
//   a journal that cannot be written): nothing more is sent, the requests in flight finish and
//   are recorded, and rows never sent are counted;
// - the progress bar, the results, one summary line in the words of the rows, how to continue,
//   and the exit code.
import type { AnswerId, AnswerRecord } from '../../api/answers.js'
import { idText, isAnswerId } from '../../api/answers.js'
import type { WriteOptions } from '../../api/client.js'
import { ApiError } from '../../api/errors.js'
import { configDir } from '../../config/dir.js'
import { Journal } from '../../config/journal.js'
import type { EarlierRun, JournalEntry, JournalError } from '../../config/journal.js'
import { ExitCode, SilentError, UsageError, describeError, stdoutFailure } from '../../errors.js'
import type { ExitCode as ExitCodeType, CliError } from '../../errors.js'
import {
  bulkSummary,
  continueLine,
  startBulkProgress,
  writeBulkResults,
} from '../../io/bulk-output.js'
import type { BulkProgress, BulkResultsOptions, CountKey } from '../../io/bulk-output.js'
import type { Batches, OutputRecord } from '../../io/output.js'
import { batchesOf } from '../../io/output.js'
import type { StopReason } from '../../io/streams.js'
import { say, sayNow } from '../../io/wrap.js'
import { count, plural } from '../../util.js'
import type { Context } from '../context.js'
import type { RecordIndex } from './lookups.js'
import { Pace } from './pace.js'

// `unknown`: sent, and no answer came back: the record may exist. `not_sent`: the run ended
// before its turn came.
// The server a run writes to, as its journal is keyed and its messages name it. The embedded
// sandbox listens on a new port in each process, so it is named by its API version (its data is
// the config directory's, like the journal): by its URL, a later run under --sandbox would never
// find the earlier run's journal, so a plain re-run was not refused and --resume had nothing to
// continue.
export function serverOf(ctx: Context, baseUrl: string): string {
  return ctx.globals.sandbox ? `the embedded sandbox (${ctx.globals.sandbox})` : baseUrl
}

export type RowStatus = 'created' | 'skipped' | 'failed' | 'unknown' | 'not_sent'
export type RowError = JournalError
// A run's counts, in the vocabulary of bulk-output.ts: the statuses, with `created_earlier` and
// `invalid` told apart.
export type RunCounts = Record<Exclude<CountKey, 'valid'>, number>

export type Outcome = {
  status: RowStatus
  id: AnswerId | null
  error: RowError | null
  // The created record as the server gave it.
  record?: AnswerRecord
  // A failure no --resume can change: invalid input, refused by the server for good, or waiting
  // on a record that was.
  final?: boolean
  // Created by an earlier run of the same input, confirmed on the server by this one.
  earlier?: boolean
}

export type Task = {
  // The record's name in the journal, the same in every run of the same input.
  item: string
  // What the server holds for this record now: its id (null when found without one), undefined
  // when it is not there. `recorded`: the id an earlier run recorded when it created it.
  find(recorded: string | undefined): Promise<AnswerId | null | undefined>
  // Creates it, with `options` for the client: the runner waits out a 429 itself, and sends it
  // again. Never sent again once it may have been applied.
  send(options: WriteOptions): Promise<{ id: AnswerId | null; record?: AnswerRecord }>
}

export type BulkRunOptions = {
  // The command, as the journal is keyed: `members add`, `seed`.
  kind: string
  // Where the records go, for the journal's key and for messages: `chamber ch_1 at <url>`.
  target: string
  // The input as it would be sent: the same content finds the same journal.
  content: unknown
  // `row` or `record`, in every message.
  noun: string
  // The progress bar: how many records it counts (those that can be sent), and what they are.
  total: number
  progress: string
  concurrency: number
  resume: boolean
  skipExisting: boolean
  // The rows invalid before sending (never sent, never in the journal), for the re-run refusal.
  invalid?: number
  // A note to print once the run knows what it will do, before the first request: `made` says
  // whether an earlier run this one continues made the item.
  notice?: (plan: { skipping: boolean; made(item: string): boolean }) => string | undefined
}

type Reason = StopReason | 'journal'

const STOP_EXIT: Record<Reason, ExitCodeType> = {
  SIGINT: ExitCode.interrupted,
  SIGTERM: ExitCode.terminated,
  SIGHUP: ExitCode.hangup,
  'output closed': ExitCode.failure,
  'output failed': ExitCode.failure,
  journal: ExitCode.failure,
}

const STOP_NOTE: Record<Reason, string> = {
  SIGINT: 'interrupted',
  SIGTERM: 'interrupted',
  SIGHUP: 'interrupted',
  'output closed': 'output closed',
  'output failed': 'output closed',
  journal: 'journal not written',
}

export const NOT_SENT: Outcome = { status: 'not_sent', id: null, error: null }

// The most times one row is sent: a server that answers it 429 that often leaves it to --resume.
const MAX_SENDS = 10

// The statuses that made something on the server (or may have): a plain re-run of the same input
// would create those records again.
const MADE = new Set(['created', 'skipped', 'sending', 'unknown'])

export class BulkRun {
  // Whether a record that exists on the server is skipped (--skip-existing, or a --resume with
  // nothing unfinished to continue).
  readonly skipping: boolean
  private readonly counts: RunCounts = {
    created: 0,
    created_earlier: 0,
    skipped: 0,
    invalid: 0,
    failed: 0,
    unknown: 0,
    not_sent: 0,
  }
  // Records a --resume could still create: unknown, not sent, failed but not for good.
  private left = 0
  // Records an earlier run created that the server no longer has: sent again.
  private lost = 0
  private reason: Reason | undefined
  private outputClosed = false
  private readonly pace: Pace
  private readonly started = Date.now()
  private progress: BulkProgress | undefined
  private stopListening = () => {}

  private constructor(
    private readonly ctx: Context,
    private readonly opts: BulkRunOptions,
    private readonly journal: Journal,
    // The earlier run's records this run continues.
    private readonly earlier: ReadonlyMap<string, JournalEntry>,
    skipping: boolean,
  ) {
    this.skipping = skipping
    this.pace = new Pace({
      concurrency: opts.concurrency,
      sleep: ctx.sleep,
      onWait: (ms) => this.progress?.waiting(ms),
    })
  }

  // Runs `body` between the journal's opening and the summary; the exit code of a run that did
  // not fully succeed is thrown after `after` (a report file) has run.
  static async run(
    ctx: Context,
    opts: BulkRunOptions,
    body: (run: BulkRun) => Promise<void>,
    after?: () => Promise<void>,
  ): Promise<void> {
    const run = await BulkRun.start(ctx, opts)
    // The bar says what the run waits for: no spinner is drawn over it.
    const release = ctx.waiting.hold()
    try {
      await body(run)
    } catch (error) {
      run.abandon()
      throw error
    } finally {
      release()
    }
    const failure = await run.end()
    await after?.()
    if (failure) throw failure
  }

  private static async start(ctx: Context, opts: BulkRunOptions): Promise<BulkRun> {
    const journal = await Journal.open(configDir(ctx.io.env), {
      kind: opts.kind,
      target: opts.target,
      content: opts.content,
    })
    let plan: Plan
    try {
      plan = planRun(journal.earlier, opts)
      journal.begin(plan.carried)
    } catch (error) {
      journal.release()
      throw error
    }
    const { io, globals } = ctx
    const run = new BulkRun(ctx, opts, journal, plan.carried ?? new Map(), plan.skipping)
    const notice = opts.notice?.({
      skipping: plan.skipping,
      made: (item) => MADE.has(run.earlier.get(item)?.status ?? ''),
    })
    for (const line of [plan.line, notice]) {
      if (line && !globals.quiet) await say(io, line)
    }
    run.stopListening = io.onStop((reason, error) => run.stop(reason, error))
    run.progress = await startBulkProgress(io, globals, opts.total, opts.progress)
    return run
  }

  // One record: settled by an earlier run, found on the server, or sent.
  async create(task: Task): Promise<Outcome> {
    const before = this.earlier.get(task.item)
    // A record an earlier run created (or may have) is confirmed on the server, not trusted: the
    // server may have been replaced since.
    if (this.skipping || (before !== undefined && MADE.has(before.status))) {
      let found: AnswerId | null | undefined
      try {
        found = await task.find(before?.id)
      } catch (error) {
        return this.settled(this.failure(error))
      }
      if (found !== undefined) {
        const status = this.skipping || before?.status === 'skipped' ? 'skipped' : 'created'
        const id = found ?? before?.id ?? null
        this.journal.settle(task.item, { status, ...(id === null ? {} : { id: idText(id) }) })
        return this.settled({ status, id, error: null, earlier: status === 'created' })
      }
      if (before?.status === 'created' || before?.status === 'skipped') this.lost++
    }
    if (before?.status === 'refused') {
      // The server refused it for good: sending it again cannot help.
      return this.settled({ status: 'failed', id: null, error: before.error ?? null, final: true })
    }
    return this.settled(await this.send(task))
  }

  // One record of a declared resource (src/api/resources): found by its natural key among its
  // parent's records, sent by its client call.
  createDeclared<B extends Record<string, unknown>>(
    index: RecordIndex<B>,
    item: string,
    parent: string | undefined,
    body: B,
  ): Promise<Outcome> {
    return this.create({
      item,
      find: () => index.find(parent, body[index.declared.key.field]),
      send: async (how) => {
        const record = await index.send(parent, body, how)
        return { id: isAnswerId(record.id) ? record.id : null, record }
      },
    })
  }

  // An outcome the command decided without the server (a row invalid before sending, a record
  // whose chamber failed), counted with the others.
  settled(outcome: Outcome): Outcome {
    const invalid = outcome.error?.code === 'invalid'
    this.counts[outcome.earlier ? 'created_earlier' : invalid ? 'invalid' : outcome.status]++
    if (outcome.status !== 'not_sent' && !invalid) this.progress?.tick()
    if (outcome.status !== 'created' && outcome.status !== 'skipped' && !outcome.final) this.left++
    return outcome
  }

  // The error object of a failure ({status, code, message, fields}), and whether it is final: a
  // 4xx other than 408 and 429 is the server's answer to the record itself. 401 and 403 are not:
  // they are about who asks, and the same record goes through with the right credentials.
  failure(error: unknown): Outcome {
    const { exitCode: _, ...described } = describeError(error, this.ctx.secrets.redact)
    const rowError: RowError = { ...described, fields: described.fields ?? {} }
    const status = described.code === 'unknown_outcome' ? 'unknown' : 'failed'
    const code = described.status
    const final =
      status === 'failed' &&
      code !== null &&
      code >= 400 &&
      code < 500 &&
      ![401, 403, 408, 429].includes(code)
    return { status, id: null, error: rowError, final }
  }

  // Prints the results (all at hand, or in batches as they settle), as the output allows.
  async print(rows: Batches | Iterable<OutputRecord>, opts: BulkResultsOptions): Promise<void> {
    const open = async function* (this: BulkRun): Batches {
      for await (const batch of Symbol.asyncIterator in rows ? rows : batchesOf(rows)) {
        // Results after stdout closed are counted in the summary only.
        if (!this.outputClosed) yield batch
      }
    }
    await writeBulkResults(this.ctx.io, open.call(this), opts, this.progress)
  }

  // How many records came to each count so far.
  get summary(): Readonly<RunCounts> {
    return { ...this.counts }
  }

  // Whether stdout can still be written (a report printed whole at the end checks this).
  get canPrint(): boolean {
    return !this.outputClosed
  }

  // Sends the record when the pace allows, and again after each 429 (which was not applied),
  // each time announced in the journal first.
  private async send(task: Task): Promise<Outcome> {
    for (let sends = 1; ; sends++) {
      const slot = await this.pace.take(sends > 1)
      if (!slot) return NOT_SENT
      if (this.reason) {
        this.pace.release(slot)
        return NOT_SENT
      }
      try {
        this.journal.sending(task.item)
      } catch (error) {
        this.pace.release(slot)
        this.stop('journal', error as Error)
        return NOT_SENT
      }
      try {
        const { id, record } = await task.send({ paced: true })
        this.pace.succeeded(slot)
        this.journal.settle(task.item, {
          status: 'created',
          ...(id === null ? {} : { id: idText(id) }),
        })
        return { status: 'created', id, error: null, record }
      } catch (error) {
        const outcome = this.failure(error)
        const limited = error instanceof ApiError && error.status === 429
        if (limited) this.pace.limited(slot, error.retryAfterMs)
        else this.pace.release(slot)
        // A 429 is recorded as what it is, a failure that changed nothing: a run stopped while
        // it waits leaves the row to --resume, which sends it without looking it up first.
        const status =
          outcome.status === 'unknown' ? 'unknown' : outcome.final ? 'refused' : 'failed'
        this.journal.settle(task.item, {
          status,
          ...(outcome.error ? { error: outcome.error } : {}),
        })
        if (!limited || sends >= MAX_SENDS) return outcome
      }
    }
  }

  // The first reason to stop wins; a stdout that closes later still stops the printing.
  private stop(reason: Reason, error?: Error): void {
    if (reason === 'output closed' || reason === 'output failed') this.outputClosed = true
    if (this.reason) return
    this.reason = reason
    this.pace.stop()
    const { io, globals } = this.ctx
    // A write error is said even with -q: it is an error.
    // A signal handler: said at once (a line break first, after the progress bar).
    if (reason === 'journal') sayNow(io, `\nerror: ${error?.message}`)
    else if (reason === 'output failed') {
      sayNow(io, `\n${stdoutFailure(error)}`)
    } else if (!globals.quiet) {
      const what = reason === 'output closed' ? 'Output closed' : 'Interrupted'
      sayNow(io, `\n${what}: finishing the requests in flight…`)
    }
  }

  // Ends the run: the journal closed (kept, so that a re-run of the same input is recognised), the
  // summary, how to go on, and the exit code to throw, if any.
  private async end(): Promise<CliError | undefined> {
    this.pace.stop()
    this.stopListening()
    this.progress?.stop()
    const { io, globals } = this.ctx
    const { counts, opts } = this
    const unsettled = counts.invalid + counts.failed + counts.unknown + counts.not_sent
    try {
      this.journal.close(this.reason && unsettled > 0 ? 'stopped' : 'finished')
    } catch (error) {
      if (!this.reason) this.reason = 'journal'
      await say(io, `error: ${(error as Error).message}`)
    }
    if (this.lost > 0 && !globals.quiet) {
      await say(
        io,
        `${count(this.lost)} ${plural(this.lost, opts.noun)} created earlier ` +
          `${this.lost === 1 ? 'was' : 'were'} not on the server (was it replaced?): sent again`,
      )
    }
    // -q keeps the summary of a run that did not fully succeed.
    if (!globals.quiet || unsettled > 0 || this.reason) {
      // Records of unknown outcome are looked up before anything is sent again.
      const note = this.reason
        ? STOP_NOTE[this.reason]
        : counts.unknown
          ? 'check before retrying'
          : undefined
      await say(io, bulkSummary(counts, { note, elapsedMs: Date.now() - this.started }))
    }
    if (this.left > 0) await say(io, continueLine(this.left, opts.noun).trimEnd())
    // The results and the summary already say what happened.
    if (this.reason) return new SilentError(STOP_EXIT[this.reason], 'interrupted')
    // Records that may exist must be looked up before anything is re-sent: that outranks failures.
    if (counts.unknown) return new SilentError(ExitCode.network, 'unknown_outcome')
    if (counts.invalid || counts.failed || counts.not_sent)
      return new SilentError(ExitCode.failure, 'partial')
    return undefined
  }

  // The body failed: what was recorded stays recorded, and the lock is let go.
  private abandon(): void {
    this.pace.stop()
    this.stopListening()
    this.progress?.stop()
    try {
      this.journal.close('stopped')
    } catch {
      // What was recorded stays recorded; the body's error is the one to tell.
    }
  }
}

type Plan = {
  // The earlier run's records, when this run continues it.
  carried?: ReadonlyMap<string, JournalEntry>
  skipping: boolean
  // What is done with the earlier run, on stderr.
  line?: string
}

// What a run does with an earlier run of the same input (contract §3 "Bulk runs").
function planRun(earlier: EarlierRun | undefined, opts: BulkRunOptions): Plan {
  const { target, noun } = opts
  const things = `${noun}s`
  const entries = earlier ? [...earlier.entries.values()] : []
  const tally = (...statuses: string[]) => entries.filter((e) => statuses.includes(e.status)).length
  // --skip-existing is always allowed: it asks the server, not the journal.
  if (opts.skipExisting) return { skipping: true }
  const unfinished =
    earlier !== undefined &&
    (earlier.end !== 'finished' ||
      entries.some(
        (e) => e.status === 'sending' || e.status === 'unknown' || e.status === 'failed',
      ))
  if (opts.resume) {
    if (unfinished) {
      const counts = bulkSummary(
        {
          created_earlier: tally('created'),
          skipped: tally('skipped'),
          unknown: tally('sending', 'unknown'),
        },
        { zero: 'created_earlier' },
      )
      return {
        carried: earlier.entries,
        skipping: false,
        line: `Resuming an earlier run (${counts}): each of these is looked up on the server first`,
      }
    }
    // Nothing to continue: what is not on the server yet is sent, and what the server refused
    // for good stays refused.
    return {
      carried: earlier?.entries,
      skipping: true,
      line:
        (earlier
          ? `Nothing to resume: the earlier run of this input against ${target} finished`
          : `Nothing to resume: no unfinished run of this input against ${target}`) +
        `; sending only the ${things} not already on the server, as --skip-existing does`,
    }
  }
  if (earlier && entries.some((e) => MADE.has(e.status))) {
    const failed = tally('failed', 'refused')
    const unknown = tally('sending', 'unknown')
    // In the words of the earlier run's summary: what it created is `created` there.
    const counts = bulkSummary({
      created: tally('created'),
      skipped: tally('skipped'),
      invalid: opts.invalid,
      failed,
      unknown,
    })
    const skipExisting = `the ${things} not already on the server`
    if (earlier.end === 'finished' && failed + unknown === 0) {
      // Nothing to continue: both flags send only what is missing.
      throw new UsageError(
        `an earlier run of this input against ${target} finished (${counts}); run the same ` +
          `command with --resume or --skip-existing to send only ${skipExisting}`,
      )
    }
    const how = earlier.end === 'finished' ? 'finished with failures' : 'ended early'
    throw new UsageError(
      `an earlier run of this input against ${target} ${how} (${counts}); run the same ` +
        `command with --resume to continue it, or with --skip-existing to send only ${skipExisting}`,
    )
  }
  return { skipping: false }
}
