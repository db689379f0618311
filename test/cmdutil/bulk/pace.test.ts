// The bulk run's pace (src/cmdutil/bulk/pace.ts), decision by decision: a clock, the jitter and
// the waits are the test's, so nothing really waits and every case gives the same answer.
import { describe, expect, it } from 'vitest'
import { Pace, ROUND_MS } from '../../../src/cmdutil/bulk/pace.js'
import type { Slot } from '../../../src/cmdutil/bulk/pace.js'

function setUp(concurrency = 8, random = 0) {
  let now = 1_000_000
  const sleeps: { ms: number; end: () => void }[] = []
  const waits: (number | undefined)[] = []
  const pace = new Pace({
    concurrency,
    now: () => now,
    random: () => random,
    // A wait ends when the test says, its time gone by.
    sleep: (ms) =>
      new Promise((end) =>
        sleeps.push({
          ms,
          end: () => {
            now += ms
            end()
          },
        }),
      ),
    onWait: (ms) => waits.push(ms),
  })
  // Takes `count` slots, each as soon as the pace gives it, and says which were given.
  const given: Slot[] = []
  const take = (count: number, again = false) => {
    for (let i = 0; i < count; i++) void pace.take(again).then((slot) => slot && given.push(slot))
  }
  // Lets the queued promises settle.
  const settle = () => new Promise((resolve) => setImmediate(resolve))
  return {
    pace,
    sleeps,
    waits,
    given,
    take,
    settle,
    advance: (ms: number) => void (now += ms),
  }
}

describe('requests in flight', () => {
  it('gives at most --concurrency slots, and one more as each is released', async () => {
    const { pace, given, take, settle } = setUp(3)
    take(5)
    await settle()
    expect(given).toHaveLength(3)
    pace.release(given[0]!)
    await settle()
    expect(given).toHaveLength(4)
  })

  it('gives a request sent again after a 429 its slot before those not sent yet', async () => {
    const { pace, settle } = setUp(1)
    const order: string[] = []
    const first = await pace.take()
    void pace.take().then(() => order.push('new'))
    void pace.take(true).then(() => order.push('again'))
    pace.release(first!)
    await settle()
    expect(order).toEqual(['again'])
  })

  it('gives no slot once stopped, to those waiting or asking later', async () => {
    const { pace, take, given, settle } = setUp(1)
    take(1)
    await settle()
    const waiting = pace.take()
    pace.stop()
    expect(await waiting).toBeUndefined()
    expect(await pace.take()).toBeUndefined()
    expect(given).toHaveLength(1)
  })
})

describe('a 429 with Retry-After', () => {
  it('pauses every sender for that long, and halves the limit', async () => {
    const { pace, sleeps, waits, given, take, settle } = setUp(4)
    take(4)
    await settle()
    pace.limited(given[0]!, 1000)
    take(3)
    pace.release(given[1]!)
    pace.release(given[2]!)
    await settle()
    // One request is in flight, the limit is 2, and none is sent while the pause lasts.
    expect(given).toHaveLength(4)
    expect(sleeps.map((s) => s.ms)).toEqual([1000])
    expect(waits).toEqual([1000])
    sleeps[0]!.end()
    await settle()
    expect(given).toHaveLength(5)
    expect(waits).toEqual([1000, undefined])
    expect(pace.limit).toBe(2)
  })

  it('a longer wait asked during a pause replaces it; a shorter one does not', async () => {
    const { pace, sleeps, given, take, settle, advance } = setUp(4)
    take(3)
    await settle()
    pace.limited(given[0]!, 1000)
    advance(100)
    pace.limited(given[1]!, 500)
    pace.limited(given[2]!, 2000)
    take(1)
    expect(sleeps.map((s) => s.ms)).toEqual([1000, 2000])
    // The first pause's end is not the end of the pause.
    sleeps[0]!.end()
    advance(-1000)
    await settle()
    expect(given).toHaveLength(3)
    sleeps[1]!.end()
    await settle()
    expect(given).toHaveLength(4)
  })
})

describe('a 429 without Retry-After', () => {
  it('halves the limit, never below 1, and backs off with jitter, longer each time', async () => {
    const { pace, sleeps, given, take, settle } = setUp(8, 0.5)
    const limits: number[] = []
    for (let i = 0; i < 5; i++) {
      take(1, true)
      await settle()
      pace.limited(given.at(-1)!, undefined)
      limits.push(pace.limit)
      sleeps.at(-1)!.end()
    }
    expect(limits).toEqual([4, 2, 1, 1, 1])
    // Half the backoff and half of the other half (random 0.5): 1 s, 2 s, 4 s, ...
    expect(sleeps.map((s) => s.ms)).toEqual([750, 1500, 3000, 6000, 12000])
  })

  it('the backoff is 0.5 to 1 s again after a success, and never over a minute', async () => {
    const { pace, sleeps, given, take, settle } = setUp(8, 1)
    for (let i = 0; i < 8; i++) {
      take(1, true)
      await settle()
      pace.limited(given.at(-1)!, undefined)
      sleeps.at(-1)!.end()
    }
    take(2)
    await settle()
    pace.succeeded(given.at(-2)!)
    pace.limited(given.at(-1)!, undefined)
    expect(sleeps.map((s) => s.ms)).toEqual([
      1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 1000,
    ])
  })

  it('answers to requests sent before the slow-down do not slow the run down again', async () => {
    const { pace, sleeps, given, take, settle } = setUp(8)
    take(8)
    await settle()
    for (const slot of given) pace.limited(slot, undefined)
    expect(pace.limit).toBe(4)
    expect(sleeps).toHaveLength(1)
  })
})

describe('raising the limit again', () => {
  it('by one for each `limit` successes, at most once a round', async () => {
    const { pace, sleeps, given, take, settle, advance } = setUp(8)
    take(1)
    await settle()
    // 8 → 4 → 2.
    pace.limited(given[0]!, undefined)
    sleeps[0]!.end()
    take(1)
    await settle()
    pace.limited(given[1]!, undefined)
    sleeps[1]!.end()
    expect(pace.limit).toBe(2)
    const succeed = async (count: number) => {
      for (let i = 0; i < count; i++) {
        take(1)
        await settle()
        pace.succeeded(given.at(-1)!)
      }
    }
    // The waits took longer than a round: two successes raise it.
    await succeed(1)
    expect(pace.limit).toBe(2)
    await succeed(1)
    expect(pace.limit).toBe(3)
    // Three more successes within that round: not yet; the next one a round later does.
    await succeed(3)
    expect(pace.limit).toBe(3)
    advance(ROUND_MS)
    await succeed(1)
    expect(pace.limit).toBe(4)
  })

  it('never above --concurrency', async () => {
    const { pace, given, take, settle, advance } = setUp(2)
    for (let i = 0; i < 10; i++) {
      advance(ROUND_MS)
      take(1)
      await settle()
      pace.succeeded(given.at(-1)!)
    }
    expect(pace.limit).toBe(2)
  })
})
