// What a command shows while a request waits for its answer (contract §5): on a terminal, once an
// exchange has had no answer for about a second, a spinner on stderr that says what it waits for
// and which attempt this is (`waiting for 127.0.0.1:5000 — attempt 2 of 3`), gone as soon as the
// answer comes. The transport reports each exchange (api/transport.ts, `watch`); this decides what
// to draw. Never in a pipe, never with -q or --debug (whose trace lines it would draw over), and
// not while something else draws on the terminal (a pager, a bulk run's bar: `hold`). In
// accessible mode the same words are plain lines, one each time they change.
import type { ExchangeWatch, WatchExchange } from '../api/transport.js'
import { CLEAR_LINE } from '../io/color.js'
import type { IO } from '../io/streams.js'

// What of the context the spinner needs (the context holds a Waiting: context.ts imports this).
type WaitingContext = { io: IO; globals: { quiet: boolean; debug: boolean } }

export const WAIT_DELAY_MS = 1000

export type Spinner = { update(text: string): void; stop(): void }

// Timers, handed in by tests that move time on by hand.
export type Timers = {
  set(run: () => void, ms: number): unknown
  clear(timer: unknown): void
}

export type WaitingOptions = {
  timers?: Timers
  // Loads what draws a spinner (ora, on first use), for the text it starts with.
  spinner?: (ctx: Pick<WaitingContext, 'io'>) => Promise<(text: string) => Spinner>
}

type Waiter = { text: string; due: boolean; timer: unknown }

const NOTHING: ExchangeWatch = { attempt() {}, end() {} }

const TIMERS: Timers = {
  set: (run, ms) => setTimeout(run, ms).unref(),
  clear: (timer) => clearTimeout(timer as NodeJS.Timeout),
}

export class Waiting {
  // In the order the exchanges began: the oldest one due is the one shown.
  private readonly waiters = new Set<Waiter>()
  private holds = 0
  private spinner: Spinner | undefined
  private start: ((text: string) => Spinner) | undefined
  private loading: Promise<void> | undefined
  private readonly timers: Timers
  private readonly load: NonNullable<WaitingOptions['spinner']>

  constructor(
    private readonly ctx: WaitingContext,
    options: WaitingOptions = {},
  ) {
    this.timers = options.timers ?? TIMERS
    this.load =
      options.spinner ?? ((ctx) => (ctx.io.accessible ? plainSpinner(ctx) : oraSpinner(ctx)))
  }

  // The transport's hook; decided per exchange, for the global options are known by then.
  readonly watch: WatchExchange = ({ host }) => {
    if (!this.canDraw()) return NOTHING
    const waiter: Waiter = { text: `waiting for ${host}`, due: false, timer: undefined }
    waiter.timer = this.timers.set(() => {
      waiter.due = true
      this.redraw()
    }, WAIT_DELAY_MS)
    this.waiters.add(waiter)
    return {
      attempt: (attempt, attempts) => {
        waiter.text =
          attempts > 1
            ? `waiting for ${host} — attempt ${attempt} of ${attempts}`
            : `waiting for ${host}`
        if (waiter.due) this.redraw()
      },
      end: () => {
        this.timers.clear(waiter.timer)
        this.waiters.delete(waiter)
        this.redraw()
      },
    }
  }

  // Nothing is drawn until the returned function is called: something else draws meanwhile.
  hold(): () => void {
    this.holds++
    this.redraw()
    let released = false
    return () => {
      if (released) return
      released = true
      this.holds--
      this.redraw()
    }
  }

  private canDraw(): boolean {
    const { io, globals } = this.ctx
    // ora counts the lines it drew by dividing by the width: at 0 it cleared lines for ever.
    const columns = (io.err as { columns?: number }).columns
    return io.stderrIsTTY && !io.stdoutIsPipe && !globals.quiet && !globals.debug && !!columns
  }

  private shown(): string | undefined {
    if (this.holds > 0) return undefined
    for (const waiter of this.waiters) if (waiter.due) return this.fit(waiter.text)
    return undefined
  }

  // One line: the spinner's frame and a space, then as much of the text as the width leaves.
  private fit(text: string): string {
    const columns = (this.ctx.io.err as { columns?: number }).columns ?? 80
    return text.length > columns - 3 ? `${text.slice(0, Math.max(0, columns - 4))}…` : text
  }

  private redraw(): void {
    const text = this.shown()
    if (text === undefined) {
      this.spinner?.stop()
      this.spinner = undefined
    } else if (this.spinner) {
      this.spinner.update(text)
    } else if (this.start) {
      this.spinner = this.start(text)
    } else {
      this.loading ??= this.load(this.ctx).then((start) => {
        this.start = start
        this.redraw()
      })
    }
  }
}

async function oraSpinner(ctx: Pick<WaitingContext, 'io'>): Promise<(text: string) => Spinner> {
  const { default: ora } = await import('ora')
  return (text) => {
    // A progress line may stand on this line (a list's `fetched 20 of 260`): the spinner takes
    // its place, and the next update draws it again.
    ctx.io.err.write(CLEAR_LINE)
    const spinner = ora({ stream: ctx.io.err, text, discardStdin: false, isEnabled: true }).start()
    return {
      update: (next) => void (spinner.text = next),
      stop: () => void spinner.stop(),
    }
  }
}

// For a screen reader: nothing that moves, the text as a line of its own each time it changes.
async function plainSpinner(ctx: Pick<WaitingContext, 'io'>): Promise<(text: string) => Spinner> {
  return (text) => {
    let said = text
    ctx.io.err.write(`${text}\n`)
    return {
      update(next) {
        if (next !== said) ctx.io.err.write(`${next}\n`)
        said = next
      },
      stop() {},
    }
  }
}
