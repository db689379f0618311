// A server that answers 429 (contract §3 "Bulk runs", §5): the request was not applied, so it is
// sent again after the wait, in the same run, and every row is created exactly once. A proxy in
// front of a real sandbox answers the creates the test chooses with 429 (Retry-After in seconds,
// as an HTTP date, or none) and forwards the rest; the waits are recorded, never slept. Every
// case counts the records on the server afterwards.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { recordingSleep, useDemoSandbox, startSession } from '../helpers/run-main.js'
import { lines, summaryLine, ndjson } from '../helpers/output.js'
import { useTempDirs } from '../helpers/sandbox.js'
import { isCreate } from '../helpers/gate.js'
import { startFakeApi } from '../helpers/fake-api.js'
import type { FakeApi } from '../helpers/fake-api.js'
import { SandboxReader } from '../helpers/session.js'

const { sandbox, run, configDir } = useDemoSandbox()
const tempDir = useTempDirs('chamberctl-rate-')

// Which creates are answered 429 (by their number, from 1), and with what Retry-After.
let limit: (n: number) => { retryAfter?: string } | undefined
let creates = 0
let proxy: FakeApi

beforeEach(async () => {
  sandbox().reset()
  creates = 0
  limit = () => undefined
  proxy = await startFakeApi({
    upstream: sandbox().sandbox.url,
    answer: ({ method, path }) => {
      if (!isCreate(method, path)) return 'forward'
      const answer = limit(++creates)
      if (!answer) return 'forward'
      const headers: Record<string, string> =
        answer.retryAfter === undefined ? {} : { 'retry-after': answer.retryAfter }
      return { status: 429, headers, body: { error: 'rate_limited', message: 'slow down' } }
    },
  })
})

afterEach(() => proxy.close())

const env = () => ({ CHAMBERCTL_BASE_URL: proxy.baseUrl('v2') })

function membersFile(count: number, tag: string): { file: string; emails: string[] } {
  const emails = Array.from({ length: count }, (_, i) => `${tag}${i}@rate.test`)
  const file = path.join(tempDir(), 'members.csv')
  const rows = emails.map((email, i) => `Member ${i},${email},standard`)
  writeFileSync(file, `name,email,membership_type\n${rows.join('\n')}\n`)
  return { file, emails }
}

// The e-mails of the chamber's members with this tag, as many times as the server has them.
async function emailsIn(chamber: string, tag: string): Promise<string[]> {
  const members = await new SandboxReader(sandbox().sandbox).members(chamber)
  return members
    .map((m) => String(m.email))
    .filter((email) => email.startsWith(tag))
    .sort()
}

describe('a bulk run answered 429 sends those rows again, in the same run', () => {
  const cases: [string, string | undefined, (waits: number[]) => void][] = [
    ['Retry-After in seconds', '1', (waits) => expect(waits).toEqual([1000, 1000, 1000, 1000])],
    [
      'Retry-After as an HTTP date, capped at a minute',
      new Date(Date.now() + 3_600_000).toUTCString(),
      (waits) => expect(waits).toEqual([60_000, 60_000, 60_000, 60_000]),
    ],
    [
      'no Retry-After: a backoff of 0.5 to 1 s',
      undefined,
      (waits) => {
        expect(waits.length).toBeGreaterThan(0)
        for (const ms of waits) expect(ms).toBeGreaterThanOrEqual(500)
        for (const ms of waits) expect(ms).toBeLessThanOrEqual(2000)
      },
    ],
  ]
  it.each(cases)(
    '%s: every row created once, the summary counts rows',
    async (_, header, check) => {
      const tag = `r${header === undefined ? 'none' : header.length}x`
      const { file, emails } = membersFile(12, tag)
      // Every third create is refused, the first time it comes.
      limit = (n) => (n % 3 === 0 && n <= 12 ? { retryAfter: header } : undefined)
      const { sleep, waits } = recordingSleep()
      const { code, stdout, stderr } = await run(
        ['members', 'add', 'ch_0001', '--from-file', file, '--concurrency', '1'],
        { env: env(), sleep },
      )
      expect(code, stderr).toBe(0)
      expect(stderr).toMatch(summaryLine('12 created'))
      const results = ndjson(stdout) as { row: number; status: string }[]
      expect(results.map((r) => r.status)).toEqual(Array(12).fill('created'))
      expect(await emailsIn('ch_0001', tag)).toEqual([...emails].sort())
      // 12 rows, 4 of them twice.
      expect(creates).toBe(16)
      check(waits)
    },
  )

  it('a row the server keeps refusing is left to --resume after 10 sends', async () => {
    const { file, emails } = membersFile(3, 'stubborn')
    // The second row's every send is refused.
    let second = 0
    limit = (n) => ((n === 2 || second > 0) && second++ < 10 ? { retryAfter: '0' } : undefined)
    const { sleep } = recordingSleep()
    const { code, stdout, stderr } = await run(
      ['members', 'add', 'ch_0001', '--from-file', file, '--concurrency', '1'],
      { env: env(), sleep },
    )
    expect(code).toBe(1)
    expect(stderr).toContain('2 created, 1 failed')
    expect(stderr).toContain('run the same command with --resume')
    const results = ndjson(stdout) as { row: number; status: string; error?: { status: number } }[]
    expect(results[1]).toMatchObject({ status: 'failed', error: { status: 429 } })
    expect(await emailsIn('ch_0001', 'stubborn')).toEqual([emails[0], emails[2]].sort())
  })
})

describe('seed answered 429', () => {
  it('sends the refused chambers and members again: each created once', async () => {
    const file = path.join(tempDir(), 'fixture.json')
    const members = (key: string) =>
      Array.from({ length: 3 }, (_, i) => ({
        name: `Seeded ${i}`,
        email: `${key}${i}@rate.test`,
        membership_type: 'standard',
      }))
    writeFileSync(
      file,
      JSON.stringify({
        chambers: [
          { key: 'rhq', name: 'Rate HQ', type: 'hq', address: {}, members: members('rhq') },
          { key: 'rsub', name: 'Rate Sub', type: 'subsidiary', hq: 'rhq', address: {} },
        ],
      }),
    )
    // The first create (the HQ) and every other one after it are refused once.
    limit = (n) => (n % 2 === 1 && n <= 9 ? { retryAfter: '1' } : undefined)
    const { sleep } = recordingSleep()
    const { code, stderr } = await run(['seed', file], { env: env(), sleep })
    expect(code, stderr).toBe(0)
    expect(stderr).toMatch(summaryLine('5 created'))
    const reader = new SandboxReader(sandbox().sandbox)
    const chambers = (await reader.chambers()).filter((c) => String(c.name).startsWith('Rate '))
    expect(chambers.map((c) => c.name).sort()).toEqual(['Rate HQ', 'Rate Sub'])
    const hq = chambers.find((c) => c.name === 'Rate HQ')!
    expect(await emailsIn(String(hq.id), 'rhq')).toEqual(members('rhq').map((m) => m.email))
  })
})

describe('Ctrl-C while the run waits after a 429', () => {
  it('stops at once; --resume sends the refused row without looking it up, once', async () => {
    const { file, emails } = membersFile(5, 'waiting')
    limit = (n) => (n === 2 ? { retryAfter: '30' } : undefined)
    let paused: () => void
    const pause = new Promise<void>((resolve) => (paused = resolve))
    // The wait never ends by itself: only the Ctrl-C ends it.
    const sleep = () => {
      paused()
      return new Promise<void>(() => {})
    }
    const args = ['members', 'add', 'ch_0001', '--from-file', file, '--concurrency', '1']
    const runEnv = { CHAMBERCTL_CONFIG_DIR: configDir(), ...credentials(), ...env() }
    const first = startSession(args, { env: runEnv, sleep })
    await pause
    first.interrupt()
    const stopped = await first.done
    expect(stopped.code).toBe(130)
    expect(stopped.stderr).toMatch(/1 created, 4 not sent \(interrupted\)/)
    expect(await emailsIn('ch_0001', 'waiting')).toEqual([emails[0]])

    const { code, stderr } = await run([...args, '--resume'], { env: env() })
    expect(code, stderr).toBe(0)
    // The refused row was recorded as failed, not as sent: nothing of unknown outcome.
    expect(stderr).toContain('Resuming an earlier run (1 created earlier)')
    expect(stderr).not.toContain('unknown')
    // What this run created, and the one the earlier run had.
    expect(lines(stderr).at(-1)).toMatch(summaryLine('4 created, 1 created earlier'))
    expect(await emailsIn('ch_0001', 'waiting')).toEqual([...emails].sort())
  })
})

describe('a single create answered 429', () => {
  it('members add waits as Retry-After says and sends it again: created once', async () => {
    limit = (n) => (n === 1 ? { retryAfter: '2' } : undefined)
    const { sleep, waits } = recordingSleep()
    const { code, stderr } = await run(
      [
        'members',
        'add',
        'ch_0001',
        '--name',
        'Single',
        '--email',
        'single@rate.test',
        '--membership-type',
        'standard',
      ],
      { env: env(), sleep },
    )
    expect(code, stderr).toBe(0)
    expect(waits).toEqual([2000])
    expect(creates).toBe(2)
    expect(await emailsIn('ch_0001', 'single')).toEqual(['single@rate.test'])
  })
})

function credentials() {
  const { clientId, clientSecret } = sandbox().sandbox.credentials
  return { CHAMBERCTL_CLIENT_ID: clientId, CHAMBERCTL_CLIENT_SECRET: clientSecret }
}
