// How fast a bulk run sends (contract §3 "Bulk runs"): at most `limit` requests in flight, and
// none while the server asked the run to wait. A 429 means the request was not applied; its
// sender waits its turn and sends it again:
// - every 429 halves the limit, never below 1 (multiplicative decrease): as many requests as are
//   in flight when the server's limit is reached are answered 429 together;
// - a 429 with Retry-After pauses every sender for that long (at most a minute); one without
//   pauses them for a jittered backoff, half a second to a second, doubling while 429s keep
//   coming without a success between them;
// - successes raise the limit by one for each `limit` of them, at most once per ROUND_MS, up to
//   --concurrency (additive increase). Per round trip, as TCP does, would be per millisecond on a
//   nearby server, and the limit would be back at --concurrency before the next 429.
// The answers to requests sent before the last slow-down were sent too fast for the same reason:
// they do not slow the run down again.

// A request's place among those in flight; `round`: how many slow-downs came before it was sent.
export type Slot = { readonly round: number }

export type PaceOptions = {
  // --concurrency: the most requests in flight.
  concurrency: number
  // The clock, the jitter and the wait: tests hand in their own, so that nothing really waits.
  now?: () => number
  random?: () => number
  sleep?: (ms: number) => Promise<void>
  // Told when every sender starts waiting for the server (for how long), and when they send
  // again (undefined).
  onWait?: (ms: number | undefined) => void
}

// The first backoff without Retry-After, and the longest.
const BACKOFF_MS = 1000
const MAX_BACKOFF_MS = 60_000
// The limit rises at most once in this time.
export const ROUND_MS = 100

export class Pace {
  private allowed: number
  // Successes since the limit last moved, and when it did.
  private successes = 0
  private moved = 0
  private inFlight = 0
  private readonly queue: ((slot: Slot | undefined) => void)[] = []
  // The pause every sender waits out: when it ends (the clock's time), and which one it is; a
  // longer one that comes during it takes its place.
  private until = 0
  private pause = 0
  private paused = false
  // onWait was told of a pause and not yet of its end.
  private announced = false
  private round = 0
  // Slow-downs without a success between them: the backoff grows with them.
  private strikes = 0
  private stopped = false
  private readonly timers = new Set<ReturnType<typeof setTimeout>>()
  private readonly now: () => number
  private readonly sleep: (ms: number) => Promise<void>

  constructor(private readonly options: PaceOptions) {
    this.allowed = options.concurrency
    this.now = options.now ?? Date.now
    this.sleep =
      options.sleep ??
      ((ms) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => {
            this.timers.delete(timer)
            resolve()
          }, ms)
          this.timers.add(timer)
        }))
  }

  // How many requests may be in flight now.
  get limit(): number {
    return this.allowed
  }

  // A slot to send one request in, once no pause holds the run and fewer than `limit` are in
  // flight; undefined when the run stopped. `again`: a request sent again after a 429 goes
  // before those not sent yet.
  take(again = false): Promise<Slot | undefined> {
    if (this.stopped) return Promise.resolve(undefined)
    return new Promise((resolve) => {
      if (again) this.queue.unshift(resolve)
      else this.queue.push(resolve)
      this.pump()
    })
  }

  // The request was answered with a 2xx.
  succeeded(slot: Slot): void {
    this.strikes = 0
    const now = this.now()
    if (++this.successes >= this.allowed && now - this.moved >= ROUND_MS) {
      this.allowed = Math.min(this.options.concurrency, this.allowed + 1)
      this.successes = 0
      this.moved = now
    }
    this.release(slot)
  }

  // The request was answered 429; `retryAfterMs`: the wait its Retry-After asked for.
  limited(slot: Slot, retryAfterMs: number | undefined): void {
    const fresh = slot.round === this.round
    if (fresh) this.round++
    let ms: number | undefined = retryAfterMs
    const now = this.now()
    if (fresh) {
      this.allowed = Math.max(1, Math.floor(this.allowed / 2))
      this.successes = 0
      this.moved = now
    }
    if (ms === undefined && fresh) {
      // Equal jitter: half the backoff, and up to as much again at random.
      const base = Math.min(BACKOFF_MS * 2 ** this.strikes++, MAX_BACKOFF_MS)
      ms = Math.round((base / 2) * (1 + (this.options.random ?? Math.random)()))
    }
    if (ms !== undefined && now + ms > this.until) this.hold(now + ms, ms)
    this.release(slot)
  }

  // The request ended any other way (an error, or it was never sent).
  release(_slot: Slot): void {
    this.inFlight--
    this.pump()
  }

  // Nothing more is sent: every request waiting for a slot gets none, and no timer is left.
  stop(): void {
    this.stopped = true
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
    this.pump()
  }

  private hold(until: number, ms: number): void {
    this.until = until
    this.paused = true
    const pause = ++this.pause
    this.announced = true
    this.options.onWait?.(ms)
    void this.sleep(ms).then(() => {
      if (pause !== this.pause) return
      this.paused = false
      this.pump()
    })
  }

  private pump(): void {
    if (this.stopped) {
      for (const resolve of this.queue.splice(0)) resolve(undefined)
      return
    }
    if (this.paused) return
    if (this.announced && this.queue.length > 0) {
      this.announced = false
      this.options.onWait?.(undefined)
    }
    while (this.inFlight < this.limit && this.queue.length > 0) {
      this.inFlight++
      this.queue.shift()!({ round: this.round })
    }
  }
}
