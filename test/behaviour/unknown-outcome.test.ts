// A POST that reached the server and got no answer (the connection dropped after the request
// was read, the answer never came within --timeout, or a gateway answered 502 or 504 for a server
// whose answer it lost) may have been applied: chamberctl says so,
// exits 5, never re-sends it, and in bulk marks that row `unknown` rather than `failed`.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { Agent, request } from 'undici'
import { afterEach, describe, expect, it } from 'vitest'
import { runMain } from '../helpers/run-main.js'
import { summaryLine, lines, ndjson } from '../helpers/output.js'
import { useTempDirs } from '../helpers/sandbox.js'
import type { RunOptions } from '../helpers/run-main.js'
import { startFakeApi } from '../helpers/fake-api.js'
import type { Reply, FakeApi, FakeRequest } from '../helpers/fake-api.js'

type Problem = { status: number | null; code: string; message: string }

const tempDir = useTempDirs('chamberctl-unknown-')
const UNKNOWN = 'the request may have been applied: check before retrying'

let listener: FakeApi | undefined
afterEach(async () => {
  await listener?.close()
  listener = undefined
})

let ids = 0
// Answers like the API, except for the requests `drop` picks.
async function serve(drop: (request: FakeRequest) => Reply | undefined) {
  listener = await startFakeApi({
    answer: (request) => {
      const chosen = drop(request)
      if (chosen) return chosen
      // A list (what a bulk run reads before it sends) is empty.
      if (request.method === 'GET' && /\/(chambers|members)(\?|$)/.test(request.path)) {
        return { body: { data: [], meta: { current_page: 1, per_page: 100, total: 0 } } }
      }
      const body = JSON.parse(request.body || '{}') as Record<string, unknown>
      const id = `${request.path.endsWith('/members') ? 'mb' : 'ch'}_${++ids}`
      return { status: request.method === 'POST' ? 201 : 200, body: { id, ...body } }
    },
  })
  return listener
}

function run(args: string[], options: RunOptions = {}) {
  return runMain(args, {
    ...options,
    env: {
      CHAMBERCTL_CONFIG_DIR: tempDir(),
      CHAMBERCTL_BASE_URL: listener!.baseUrl(),
      CHAMBERCTL_TOKEN: 'test-token',
      ...options.env,
    },
  })
}

const posts = () => listener!.requests.filter((r) => r.method === 'POST')
const MEMBER = ['--name', 'Ada', '--email', 'ada@example.com', '--membership-type', 'standard']

describe('a single create with no answer', () => {
  it('members add: the connection drops after the request was read → exit 5, sent once', async () => {
    await serve(() => 'drop')
    const { code, stdout, stderr } = await run(['members', 'add', 'ch_0001', ...MEMBER, '--json'])
    expect(code).toBe(5)
    expect(stdout).toBe('')
    expect(stderr).toContain(`after sending POST /v2/chambers/ch_0001/members: ${UNKNOWN}`)
    expect(stderr).not.toContain('cannot reach')
    expect(JSON.parse(lines(stderr).at(-1)!)).toMatchObject({
      error: { status: null, code: 'unknown_outcome' },
    })
    expect(posts()).toHaveLength(1)
  })

  it('chambers create: no answer within --timeout after sending → exit 5, sent once', async () => {
    let connectionsWhenSent = 0
    await serve((request) => {
      if (request.method !== 'POST') return undefined
      connectionsWhenSent = listener!.connections()
      return 'hang'
    })
    // The create goes out on a connection made before: written at once, with no connection to
    // wait for. On one still to be made, a loaded machine could spend the 0.3 s connecting, and
    // the create would rightly be "not sent" (cannot reach).
    const agent = new Agent()
    try {
      const warm = await request(`${listener!.baseUrl()}/chambers/ch_1`, { dispatcher: agent })
      await warm.body.text()
      // undici hands a connection back a turn after its answer.
      await new Promise((resolve) => setImmediate(resolve))
      const { code, stderr } = await run(
        [
          'chambers',
          'create',
          '--name',
          'Kiel',
          '--type',
          'hq',
          '--address-field',
          'city=Kiel',
          '--timeout',
          '0.3',
        ],
        { dispatcher: agent },
      )
      expect(code).toBe(5)
      expect(stderr).toMatch(/no answer from 127\.0\.0\.1:\d+ within 0\.3 s after sending POST/)
      expect(stderr).toContain(UNKNOWN)
      // It went out on the connection made before.
      expect(connectionsWhenSent).toBe(1)
    } finally {
      await agent.destroy()
    }
    expect(posts()).toHaveLength(1)
  })

  it('api -X PATCH: the same, for a raw request that changes something', async () => {
    await serve(() => 'drop')
    const { code, stdout, stderr } = await run([
      'api',
      '-X',
      'PATCH',
      '/chambers/ch_1',
      '-f',
      'name=B',
    ])
    expect(code).toBe(5)
    expect(stdout).toBe('')
    expect(stderr).toContain(`after sending PATCH /v2/chambers/ch_1: ${UNKNOWN}`)
    expect(listener!.requests).toHaveLength(1)
  })

  // It was reached: "cannot reach" is said only when no connection was made (contract §5).
  it('a GET that loses its connection is retried and reported as lost, not unknown', async () => {
    await serve(() => 'drop')
    const { code, stderr } = await run(['chambers', 'get', 'ch_0001'])
    expect(code).toBe(5)
    expect(stderr).toMatch(/the connection to 127\.0\.0\.1:\d+ was lost before its answer/)
    expect(stderr).not.toMatch(/cannot reach/)
    expect(stderr).not.toContain(UNKNOWN)
    expect(listener!.requests).toHaveLength(3)
  })
})

describe("a gateway's 502 or 504 to a request that changes something", () => {
  const gateway = (status: number) => ({
    status,
    body: '<html><body>upstream timed out</body></html>',
  })

  for (const status of [502, 504]) {
    it(`members add: HTTP ${status} → unknown outcome, exit 5, sent once`, async () => {
      await serve((r) => (r.method === 'POST' ? gateway(status) : undefined))
      const { code, stdout, stderr } = await run(['members', 'add', 'ch_0001', ...MEMBER, '--json'])
      expect(code).toBe(5)
      expect(stdout).toBe('')
      expect(stderr).toContain(
        `answered HTTP ${status} (a gateway that lost the server's answer) to POST /v2/chambers/ch_0001/members: ${UNKNOWN}`,
      )
      expect(JSON.parse(lines(stderr).at(-1)!)).toMatchObject({
        error: { status, code: 'unknown_outcome' },
      })
      expect(posts()).toHaveLength(1)
    })
  }

  it('a 503 (the server itself says it is not serving) is a failure, not unknown', async () => {
    await serve((r) => (r.method === 'POST' ? gateway(503) : undefined))
    const { code, stderr } = await run(['members', 'add', 'ch_0001', ...MEMBER])
    expect(code).toBe(1)
    expect(stderr).toContain('HTTP 503')
    expect(stderr).not.toContain(UNKNOWN)
    expect(posts()).toHaveLength(1)
  })

  it('a GET answered 504 is retried and then a server error, never unknown', async () => {
    await serve(() => gateway(504))
    const { code, stderr } = await run(['chambers', 'get', 'ch_0001'])
    expect(code).toBe(1)
    expect(stderr).not.toContain(UNKNOWN)
    expect(listener!.requests).toHaveLength(3)
  })

  it('api -X POST prints the body it got and exits 5 with the same message', async () => {
    await serve(() => gateway(504))
    const { code, stdout, stderr } = await run(['api', '-X', 'POST', '/chambers', '-f', 'name=B'])
    expect(code).toBe(5)
    expect(stdout).toContain('upstream timed out')
    expect(stderr).toContain(`to POST /v2/chambers: ${UNKNOWN}`)
    expect(listener!.requests).toHaveLength(1)
  })

  it('members add --from-file: a row applied behind a 502 is unknown, and --resume finds it', async () => {
    // The server creates every member; its gateway loses the answer for grace.
    const members: Record<string, unknown>[] = []
    await serve((r) => {
      if (r.method === 'GET') return { status: 200, body: { data: members } }
      const member = { id: `mb_${members.length + 1}`, ...(JSON.parse(r.body) as object) }
      members.push(member)
      return r.body.includes('grace@') ? gateway(502) : { status: 201, body: member }
    })
    const file = path.join(tempDir(), 'members.ndjson')
    writeFileSync(
      file,
      ['ada', 'grace']
        .map((n) => JSON.stringify({ name: n, email: `${n}@example.com`, membership_type: 's' }))
        .join('\n'),
    )
    const args = ['members', 'add', 'ch_0001', '--from-file', file, '--concurrency', '1']
    const env = { CHAMBERCTL_CONFIG_DIR: tempDir() } // the journal lives there
    const first = await run(args, { env })
    expect(first.code).toBe(5)
    expect(ndjson<{ status: string }>(first.stdout).map((r) => r.status)).toEqual([
      'created',
      'unknown',
    ])
    const resumed = await run([...args, '--resume'], { env })
    expect(resumed.code).toBe(0)
    expect(posts()).toHaveLength(2)
    expect(members.map((m) => m.email)).toEqual(['ada@example.com', 'grace@example.com'])
  })
})

describe('bulk runs with no answer for some rows', () => {
  it('members add --from-file marks the row unknown, counts it, and exits 5', async () => {
    await serve((r) => (r.body.includes('grace@') ? 'drop' : undefined))
    const file = path.join(tempDir(), 'members.ndjson')
    writeFileSync(
      file,
      ['ada', 'grace', 'alan']
        .map((n) => JSON.stringify({ name: n, email: `${n}@example.com`, membership_type: 's' }))
        .join('\n'),
    )
    const { code, stdout, stderr } = await run([
      'members',
      'add',
      'ch_0001',
      '--from-file',
      file,
      '--concurrency',
      '1',
    ])
    expect(code).toBe(5)
    const rows = ndjson<{ row: number; status: string; error?: { message: string } }>(stdout)
    expect(rows.map((r) => r.status)).toEqual(['created', 'unknown', 'created'])
    expect(rows[1]!.error!.message).toContain(UNKNOWN)
    expect(lines(stderr).at(-2)).toMatch(
      summaryLine('2 created, 1 unknown', ' (check before retrying)'),
    )
    expect(lines(stderr).at(-1)).toBe(
      'To continue, run the same command with --resume: it sends only the 1 row not yet created',
    )
    expect(posts()).toHaveLength(3)
  })

  it('seed marks the chamber unknown, does not send its members, and reports the count', async () => {
    await serve((r) =>
      r.path === '/v2/chambers' && r.body.includes('"Lost"') ? 'drop' : undefined,
    )
    const file = path.join(tempDir(), 'fixture.json')
    const member = (n: string) => ({ name: n, email: `${n}@example.com`, membership_type: 's' })
    writeFileSync(
      file,
      JSON.stringify({
        chambers: [
          { key: 'lost', name: 'Lost', type: 'hq', address: {}, members: [member('ada')] },
          { key: 'kept', name: 'Kept', type: 'hq', address: {}, members: [member('alan')] },
        ],
      }),
    )
    const { code, stdout, stderr } = await run(['seed', file, '--json'])
    expect(code, stderr).toBe(5)
    const report = JSON.parse(stdout) as {
      chambers: Record<string, { id: string | null; status: string; error: Problem | null }>
      members: { email: string; status: string; error: Problem | null }[]
      summary: Record<string, number>
    }
    expect(report.chambers.lost).toMatchObject({ status: 'unknown' })
    expect(report.chambers.lost!.error!.message).toContain(UNKNOWN)
    expect(report.members).toMatchObject([
      {
        email: 'ada@example.com',
        status: 'not_sent',
        error: { code: 'dependency', message: "not sent: the chamber's outcome is unknown" },
      },
      { email: 'alan@example.com', status: 'created' },
    ])
    expect(report.summary).toEqual({
      created: 2,
      created_earlier: 0,
      skipped: 0,
      invalid: 0,
      failed: 0,
      unknown: 1,
      not_sent: 1,
    })
    expect(lines(stderr).at(-2)).toMatch(
      summaryLine('2 created, 1 unknown, 1 not sent', ' (check before retrying)'),
    )
    expect(lines(stderr).at(-1)).toBe(
      'To continue, run the same command with --resume: it sends only the 2 records not yet created',
    )
    const kept = report.chambers.kept!.id!
    expect(posts().map((r) => r.path)).toEqual(
      expect.arrayContaining(['/v2/chambers', '/v2/chambers', `/v2/chambers/${kept}/members`]),
    )
    expect(posts()).toHaveLength(3)
  })
})
