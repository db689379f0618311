// What a bulk run (`members add --from-file`, `seed`) shows (contract §4): a progress bar on
// stderr that stays on the screen, the results on stdout, and one summary line on stderr in the
// words of the results' statuses. On a terminal without -o or --verbose only the rows that did
// not work out are printed: with 2,000 rows, the failures would otherwise scroll away.
import type { Column } from '../types/columns.js'
import { count, plural } from '../util.js'
import { CLEAR_LINE, SAVE_CURSOR } from './color.js'
import type { OutputFormat } from './format.js'
import type { JqProgram } from './jq.js'
import type { Batches, OutputIO, OutputRecord } from './output.js'
import { batchesOf, writeBatches } from './output.js'
import { plainLines } from './progress.js'
import type { IO } from './streams.js'

// The statuses of a row that worked out; every other one (failed, unknown, not_sent) is shown on a
// terminal, but for not_sent: rows never sent are counted there, not listed.
const SUCCESSES = new Set(['created', 'skipped', 'valid'])

// The one vocabulary of a bulk run's counts (contract §3 "Bulk runs"), in the order every line
// says them: the summary, the re-run refusal, `--resume`'s first line and the `summary` of
// seed's JSON report all come from here. A count refines a row's status: `created_earlier` rows
// have the status `created` (an earlier run created them, this one confirmed them), `invalid`
// rows the status `failed` (with `error.code` `invalid`). `valid` is a dry run's.
export const COUNT_WORDS = {
  created: 'created',
  created_earlier: 'created earlier',
  skipped: 'skipped as existing',
  valid: 'valid',
  invalid: 'invalid',
  failed: 'failed',
  unknown: 'unknown',
  not_sent: 'not sent',
} as const
export type CountKey = keyof typeof COUNT_WORDS
export type Counts = Partial<Record<CountKey, number>>

export type BulkResultsOptions = {
  format: OutputFormat
  // Whether -o/--json was given: a terminal without one gets the failures only.
  formatChosen: boolean
  verbose: boolean
  columns: readonly Column[]
  fields?: readonly string[]
  color: boolean
  wide?: boolean
  quiet?: boolean
  jq?: JqProgram
  // The failures on a terminal: their columns, and the rows as shown there (a line number, say).
  failures: { columns: readonly Column[]; view?: (row: OutputRecord) => OutputRecord }
}

// Writes the results (all at hand, or in batches as rows settle; a table streams too). The bar is
// taken off its line before each batch is printed, drawn again below it, and stopped after the
// last row.
export async function writeBulkResults(
  io: OutputIO,
  rows: Batches | Iterable<OutputRecord>,
  opts: BulkResultsOptions,
  progress?: BulkProgress,
): Promise<void> {
  const failuresOnly = io.stdoutIsTTY && !opts.formatChosen && !opts.verbose
  async function* shown(): Batches {
    for await (const batch of Symbol.asyncIterator in rows ? rows : batchesOf(rows)) {
      const shown: OutputRecord[] = []
      for (const row of batch) {
        const status = String(row.status)
        if (failuresOnly && SUCCESSES.has(status)) continue
        if (io.stdoutIsTTY && status === 'not_sent') continue
        shown.push(failuresOnly ? (opts.failures.view?.(row) ?? row) : row)
      }
      if (shown.length === 0) continue
      progress?.clear()
      yield shown
    }
    progress?.stop()
  }
  await writeBatches(io, shown(), {
    format: opts.format,
    columns: failuresOnly ? opts.failures.columns : opts.columns,
    fields: opts.fields,
    color: opts.color,
    wide: opts.wide,
    quiet: opts.quiet,
    jq: opts.jq,
  })
}

// How to go on after a run that left `left` rows (or records) not created: said even with -q,
// for without it the way on is to edit the input or to create duplicates.
export function continueLine(left: number, what: string): string {
  return `To continue, run the same command with --resume: it sends only the ${count(left)} ${plural(left, what)} not yet created\n`
}

// A failure's reason on a terminal, on one line: what the server said about each field
// (`email: already a member of ch_0003`), and its status line only when it named no field.
export function reasonText(error: { message: string; fields?: Record<string, string[]> }): string {
  const reasons = Object.entries(error.fields ?? {}).map(
    ([field, messages]) => `${field}: ${messages.join(', ')}`,
  )
  return reasons.length > 0 ? reasons.join('; ') : error.message
}

// `1,998 created, 2 failed in 4.1 s`, `2,650 created, 350 created earlier`, `676 created, 4,323
// not sent (interrupted) in 3.2 s`: every count that occurred (`0 created` when none did, or
// `zero`), in the words of COUNT_WORDS and their order.
export function bulkSummary(
  counts: Counts,
  opts: { note?: string; elapsedMs?: number; zero?: CountKey } = {},
): string {
  const keys = Object.keys(COUNT_WORDS) as CountKey[]
  const occurred = keys.filter((key) => (counts[key] ?? 0) > 0)
  const parts = (occurred.length ? occurred : [opts.zero ?? 'created']).map(
    (key) => `${count(counts[key] ?? 0)} ${COUNT_WORDS[key]}`,
  )
  const note = opts.note ? ` (${opts.note})` : ''
  const time = opts.elapsedMs === undefined ? '' : ` in ${(opts.elapsedMs / 1000).toFixed(1)} s`
  return `${parts.join(', ')}${note}${time}`
}

export type BulkProgress = {
  // One more row settled.
  tick(): void
  // The run waits `ms` for the server, which asked it to slow down (a 429); undefined: it sends
  // again.
  waiting(ms: number | undefined): void
  // Takes the bar off its line before a record is printed to the same terminal; the next frame
  // draws it again below.
  clear(): void
  // The last frame stays on the screen. Once; later calls do nothing.
  stop(): void
}

// A bar on stderr, only on a terminal, never when stdout is a pipe (its reader may be writing to
// the same terminal) and never with -q: rows settled/total (however each settled: the summary
// says how, a skipped row is not "sent"), rate and time left, always whole: the bar gives up
// cells to fit the terminal's width. In accessible mode, plain lines instead.
export async function startBulkProgress(
  io: Pick<
    IO,
    'err' | 'stderrIsTTY' | 'stdoutIsTTY' | 'stdoutIsPipe' | 'stderrWidth' | 'accessible'
  >,
  opts: { quiet: boolean },
  total: number,
  noun: string,
  now: () => number = Date.now,
): Promise<BulkProgress | undefined> {
  if (!io.stderrIsTTY || io.stdoutIsPipe || opts.quiet || total === 0) return undefined
  if (io.accessible) return plainProgress(io, total, noun, now)
  const { SingleBar, Format } = (await import('cli-progress')).default
  const started = Date.now()
  const all = count(total)
  const text = `{done}/{all} ${noun} | {rate}/s | ETA {eta_formatted}`
  // The text at its longest: every count as long as the total, a rate of 99,999/s, an ETA of
  // 99h59m; the bar takes what is left of the line, up to 24 cells.
  const width = io.stderrWidth ?? 80
  const longest = `${all}/${all} ${noun} | 99,999/s | ETA 99h59m`.length
  const barsize = Math.max(0, Math.min(24, width - 1 - longest))
  const sending = barsize > 0 ? `{bar} ${text}` : text
  // While the server holds the run back, that takes the place of the rate and the time left,
  // and of the bar where both do not fit, and says less where that does not fit either.
  const held = `{done}/{all} ${noun} | {waiting}`
  const heldLongest = `${all}/${all} ${noun} | ${waitingText(60_000)}`.length
  const holding =
    barsize > 0 && barsize + 1 + heldLongest <= width
      ? `{bar} ${held}`
      : heldLongest < width
        ? held
        : `{done}/{all} ${noun} | {waited}`
  const bar = new SingleBar({
    stream: io.err,
    format: (options, params, payload: { waiting?: string }) =>
      Format.Formatter(
        { ...options, format: payload.waiting ? holding : sending },
        params,
        payload,
      ),
    barsize,
    barCompleteChar: '█',
    barIncompleteChar: '░',
    // The time left from the last 50 rows, not the last 10: rows settle in bursts.
    etaBuffer: 50,
    hideCursor: false,
    clearOnComplete: false,
    // Redrawn after clear() even when the count has not moved.
    forceRedraw: true,
    fps: 10,
  })
  let value = 0
  let stopped = false
  const rate = () => Math.round(value / Math.max((Date.now() - started) / 1000, 0.001))
  bar.start(total, 0, { rate: 0, done: '0', all })
  return {
    tick() {
      value++
      bar.update(value, { rate: count(rate()), done: count(value) })
    },
    waiting(ms) {
      const waiting = ms === undefined ? '' : waitingText(ms)
      bar.update(value, { waiting, waited: waiting.replace(/:.*/, '') })
    },
    clear() {
      if (io.stdoutIsTTY) io.err.write(CLEAR_LINE)
    },
    stop() {
      if (stopped) return
      stopped = true
      bar.update(value, { rate: count(rate()), done: count(value) })
      // cli-progress returns the cursor to where the bar started before ending its line; records
      // printed since then would be written over. Saved here, the cursor stays on this line.
      io.err.write(SAVE_CURSOR)
      bar.stop()
    },
  }
}

// For a screen reader: no bar, `200 of 1,000 rows` as a plain line now and then, and a wait
// the server asked for said once, as it begins.
function plainProgress(
  io: Pick<IO, 'err'>,
  total: number,
  noun: string,
  now: () => number,
): BulkProgress {
  const line = plainLines(io, now)
  let value = 0
  let held = false
  return {
    tick() {
      value++
      line(`${count(value)} of ${count(total)} ${noun}`)
    },
    waiting(ms) {
      if (ms !== undefined && !held) io.err.write(`${waitingText(ms)}\n`)
      held = ms !== undefined
    },
    clear() {},
    stop() {},
  }
}

// `waiting 1 s: the server asked to slow down`; a wait under a second in tenths.
function waitingText(ms: number): string {
  const seconds = ms >= 1000 ? String(Math.ceil(ms / 1000)) : (ms / 1000).toFixed(1)
  return `waiting ${seconds} s: the server asked to slow down`
}
