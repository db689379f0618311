// What a request waiting for its answer shows (src/cmdutil/waiting.ts), on a clock the test moves
// by hand and a spinner that records what it was told: nothing before a second has passed without
// an answer, then what it waits for and the attempt, gone when the answer comes; never where it
// must not draw.
import { describe, expect, it } from 'vitest'
import { DEFAULT_GLOBALS } from '../../src/cmdutil/globals.js'
import type { Globals } from '../../src/cmdutil/context.js'
import { WAIT_DELAY_MS, Waiting } from '../../src/cmdutil/waiting.js'
import type { Timers } from '../../src/cmdutil/waiting.js'
import { createTestIO } from '../helpers/test-io.js'
import type { TestIOOptions } from '../helpers/test-io.js'

// Timers that run only when the test moves the clock past them.
function manualTimers() {
  let now = 0
  const pending = new Map<number, { at: number; run: () => void }>()
  let next = 0
  const timers: Timers = {
    set(run, ms) {
      pending.set(++next, { at: now + ms, run })
      return next
    },
    clear: (timer) => void pending.delete(timer as number),
  }
  return {
    timers,
    async advance(ms: number) {
      now += ms
      for (const [id, timer] of [...pending].sort((a, b) => a[1].at - b[1].at)) {
        if (timer.at > now) continue
        pending.delete(id)
        timer.run()
      }
      // The spinner's module loads in a promise.
      await new Promise((resolve) => setImmediate(resolve))
    },
    pending: () => pending.size,
  }
}

function setUp(io: TestIOOptions = {}, globals: Partial<Globals> = {}) {
  const clock = manualTimers()
  const drawn: string[] = []
  const test = createTestIO({ stderrIsTTY: true, stdoutIsTTY: true, stdoutWidth: 80, ...io })
  const waiting = new Waiting(
    { io: test.io, globals: { ...DEFAULT_GLOBALS, ...globals } },
    {
      timers: clock.timers,
      spinner: async () => (text) => {
        drawn.push(`start ${text}`)
        return {
          update: (next) => void drawn.push(`update ${next}`),
          stop: () => void drawn.push('stop'),
        }
      },
    },
  )
  return { waiting, clock, drawn }
}

const HOST = { host: '127.0.0.1:5000', method: 'GET' as const }

describe('waiting for an answer', () => {
  it('shows nothing when the answer comes within a second', async () => {
    const { waiting, clock, drawn } = setUp()
    const watch = waiting.watch(HOST)
    watch.attempt(1, 3)
    await clock.advance(WAIT_DELAY_MS - 1)
    watch.end()
    await clock.advance(WAIT_DELAY_MS)
    expect(drawn).toEqual([])
    expect(clock.pending()).toBe(0)
  })

  it('after a second, says what it waits for and counts the attempts; gone with the answer', async () => {
    const { waiting, clock, drawn } = setUp()
    const watch = waiting.watch(HOST)
    watch.attempt(1, 3)
    await clock.advance(WAIT_DELAY_MS)
    expect(drawn).toEqual(['start waiting for 127.0.0.1:5000 — attempt 1 of 3'])
    watch.attempt(2, 3)
    watch.attempt(3, 3)
    watch.end()
    expect(drawn).toEqual([
      'start waiting for 127.0.0.1:5000 — attempt 1 of 3',
      'update waiting for 127.0.0.1:5000 — attempt 2 of 3',
      'update waiting for 127.0.0.1:5000 — attempt 3 of 3',
      'stop',
    ])
  })

  it('counts no attempts for a request that is not sent again (a create)', async () => {
    const { waiting, clock, drawn } = setUp()
    waiting.watch({ ...HOST, method: 'POST' }).attempt(1, 1)
    await clock.advance(WAIT_DELAY_MS)
    expect(drawn).toEqual(['start waiting for 127.0.0.1:5000'])
  })

  it('shows the oldest exchange still waiting, then the next', async () => {
    const { waiting, clock, drawn } = setUp()
    const first = waiting.watch(HOST)
    first.attempt(1, 3)
    await clock.advance(500)
    const second = waiting.watch({ ...HOST, host: 'api.example:443' })
    second.attempt(1, 3)
    await clock.advance(500)
    expect(drawn).toEqual(['start waiting for 127.0.0.1:5000 — attempt 1 of 3'])
    first.end()
    // The second has not waited a second yet.
    expect(drawn.at(-1)).toBe('stop')
    await clock.advance(500)
    expect(drawn.at(-1)).toBe('start waiting for api.example:443 — attempt 1 of 3')
    second.end()
    expect(drawn.at(-1)).toBe('stop')
  })

  it('draws nothing while held (a pager, a bulk run’s bar), and resumes when released', async () => {
    const { waiting, clock, drawn } = setUp()
    const release = waiting.hold()
    const watch = waiting.watch(HOST)
    watch.attempt(1, 3)
    await clock.advance(WAIT_DELAY_MS)
    expect(drawn).toEqual([])
    release()
    release()
    await clock.advance(0)
    expect(drawn).toEqual(['start waiting for 127.0.0.1:5000 — attempt 1 of 3'])
    waiting.hold()
    expect(drawn.at(-1)).toBe('stop')
    watch.end()
  })

  it('fits the line to a narrow terminal', async () => {
    const { waiting, clock, drawn } = setUp({ stdoutWidth: 30 })
    waiting.watch(HOST).attempt(2, 3)
    await clock.advance(WAIT_DELAY_MS)
    const [line] = drawn
    expect(line).toBe('start waiting for 127.0.0.1:5000…')
    // The frame and a space before it.
    expect(line!.length - 'start '.length + 2).toBeLessThan(30)
  })

  it.each<[string, TestIOOptions, Partial<Globals>]>([
    ['in a pipe (stdout)', { stdoutIsPipe: true }, {}],
    ['when stderr is not a terminal', { stderrIsTTY: false }, {}],
    ['with -q', {}, { quiet: true }],
    ['with --debug (its trace lines)', {}, { debug: true }],
    ['on a terminal that reports no width', { stdoutWidth: 0 }, {}],
  ])('never draws %s', async (_, io, globals) => {
    const { waiting, clock, drawn } = setUp(io, globals)
    const watch = waiting.watch(HOST)
    watch.attempt(1, 3)
    await clock.advance(10 * WAIT_DELAY_MS)
    watch.end()
    expect(drawn).toEqual([])
    expect(clock.pending()).toBe(0)
  })

  it('in accessible mode, says it in plain lines, one each time the words change', async () => {
    const clock = manualTimers()
    const test = createTestIO({ stderrIsTTY: true, stdoutIsTTY: true, stdoutWidth: 80 })
    test.io.accessible = true
    const waiting = new Waiting({ io: test.io, globals: DEFAULT_GLOBALS }, { timers: clock.timers })
    const watch = waiting.watch(HOST)
    watch.attempt(1, 3)
    await clock.advance(WAIT_DELAY_MS)
    watch.attempt(2, 3)
    const other = waiting.watch(HOST)
    other.end()
    watch.end()
    expect(test.stderr()).toBe(
      'waiting for 127.0.0.1:5000 — attempt 1 of 3\nwaiting for 127.0.0.1:5000 — attempt 2 of 3\n',
    )
  })
})
