// `report members` against the demo sandbox: its rows are the union of `members list --all` over
// every chamber, each with its chamber's id, name and city; filters, --limit, every format, the
// CSV formula guard, v1's refusal of the v2 filters. Odd answers and a chamber that vanishes
// mid-run against the fake API.
import { describe, expect, it } from 'vitest'
import { useDemoSandbox } from '../../helpers/run-main.js'
import { runMain, startSession } from '../../helpers/run-main.js'
import { startGate } from '../../helpers/gate.js'
import { useFakeApi } from '../../helpers/fake-api.js'
import type { FakeRequest } from '../../helpers/fake-api.js'
import { BIG_CHAMBER_MEMBERS, credentialsEnv, useTempDirs } from '../../helpers/sandbox.js'
import { lines, ndjson, parseCsv, until } from '../../helpers/output.js'

const { sandbox, run, tempDir } = useDemoSandbox()

type Row = Record<string, unknown>
// The chamber's fields, then the member's.
const COLUMNS = [
  ...['chamber_id', 'chamber_name', 'chamber_city'],
  ...['id', 'name', 'email', 'phone', 'membership_type', 'status', 'joined_at'],
]

async function json<T>(args: string[]): Promise<T> {
  const { code, stdout, stderr } = await run([...args, '--json'])
  expect(code, stderr).toBe(0)
  return JSON.parse(stdout) as T
}

// What the report must print: for each chamber `chambers list` gives (with the filters), the
// rows `members list --all` gives, the chamber's id, name and city in front.
async function expectedRows(chamberFlags: string[] = [], memberFlags: string[] = []) {
  const chambers = await json<Row[]>(['chambers', 'list', '--all', ...chamberFlags])
  const rows: Row[] = []
  for (const chamber of chambers) {
    const members = await json<Row[]>([
      'members',
      'list',
      String(chamber.id),
      '--all',
      ...memberFlags,
    ])
    const city = (chamber.address as { city?: unknown } | null)?.city ?? null
    for (const member of members) {
      rows.push({
        chamber_id: chamber.id,
        chamber_name: chamber.name,
        chamber_city: city,
        ...member,
      })
    }
  }
  return rows
}

const memberRequests = () =>
  sandbox()
    .requests.filter((r) => r.method === 'GET' && r.path.includes('/members'))
    .map((r) => r.path)

describe('report members: the rows', () => {
  it('are the union of members list --all over every chamber, counted and compared', async () => {
    const expected = await expectedRows()
    expect(expected.length).toBeGreaterThan(300)
    const rows = await json<Row[]>(['report', 'members'])
    expect(rows).toHaveLength(expected.length)
    expect(rows).toEqual(expected)
    // The chamber's fields first, in every row.
    expect(Object.keys(rows[0]!).slice(0, 4)).toEqual([
      'chamber_id',
      'chamber_name',
      'chamber_city',
      'id',
    ])
  })

  it('select chambers by --type and --status and members by --member-status', async () => {
    const expected = await expectedRows(
      ['--type', 'hq', '--status', 'active'],
      ['--status', 'inactive'],
    )
    expect(expected.length).toBeGreaterThan(0)
    sandbox().reset()
    const rows = await json<Row[]>([
      'report',
      'members',
      '--type',
      'hq',
      '--status',
      'active',
      '--member-status',
      'inactive',
    ])
    expect(rows).toEqual(expected)
    expect(new Set(rows.map((row) => row.status))).toEqual(new Set(['inactive']))
    const chambersAsked = sandbox().requests.find((r) => r.path.startsWith('/v2/chambers?'))!
    expect(chambersAsked.path).toContain('filter%5Btype%5D=hq')
    expect(memberRequests().every((path) => path.includes('filter%5Bstatus%5D=inactive'))).toBe(
      true,
    )
  })

  it('stop at --limit, fetching no page they do not need', async () => {
    const all = await expectedRows()
    sandbox().reset()
    const rows = await json<Row[]>(['report', 'members', '--limit', '5'])
    expect(rows).toEqual(all.slice(0, 5))
    expect(memberRequests()).toEqual(['/v2/chambers/ch_0001/members?page=1&per_page=5'])
  })
})

describe('report members: formats', () => {
  it('prints tab-separated rows in a pipe, the chamber first', async () => {
    const expected = await expectedRows()
    const { code, stdout } = await run(['report', 'members'])
    expect(code).toBe(0)
    const rows = lines(stdout).map((line) => line.split('\t'))
    expect(rows).toHaveLength(expected.length)
    const first = expected[0]!
    expect(rows[0]!.slice(0, 6)).toEqual(
      ['chamber_id', 'chamber_name', 'chamber_city', 'id', 'name', 'email'].map((key) =>
        String(first[key]),
      ),
    )
  })

  it('prints a table with a header on a terminal', async () => {
    const { code, stdout } = await run(['report', 'members', '--limit', '3', '--wide'], {
      stdoutIsTTY: true,
      env: { NO_COLOR: '1' },
    })
    expect(code).toBe(0)
    expect(lines(stdout)[0]!.split(/ {2,}/)).toEqual(COLUMNS)
    expect(lines(stdout)).toHaveLength(4)
  })

  it('prints CSV with the formula guard, and ndjson with --fields and --jq', async () => {
    const expected = await expectedRows()
    const csv = await run(['report', 'members', '-o', 'csv'])
    const table = parseCsv(csv.stdout)
    expect(table[0]).toEqual(COLUMNS)
    expect(table).toHaveLength(expected.length + 1)
    // Phones start with `+`: a spreadsheet would run them as formulas.
    expect(table[1]![6]).toBe(`'${String(expected[0]!.phone)}`)

    const picked = await run([
      'report',
      'members',
      '-o',
      'ndjson',
      '--fields',
      'chamber_city,email',
    ])
    expect(ndjson(picked.stdout)).toEqual(
      expected.map((row) => ({ chamber_city: row.chamber_city, email: row.email })),
    )
    const jq = await run(['report', 'members', '-o', 'ndjson', '--jq', '.chamber_name'])
    expect(lines(jq.stdout)).toEqual(expected.map((row) => row.chamber_name))
  })

  it('refuses a field the rows do not have, before any request', async () => {
    sandbox().reset()
    const { code, stderr } = await run(['report', 'members', '--fields', 'chamber.city'])
    expect(code).toBe(2)
    expect(stderr).toContain('chamber_city')
    expect(sandbox().requests).toHaveLength(0)
  })
})

describe('report members: progress', () => {
  it('counts on a terminal stderr, cleared at the end; nothing in a pipe or with -q', async () => {
    const tty = await run(['report', 'members', '-o', 'ndjson'], { stderrIsTTY: true })
    expect(tty.code).toBe(0)
    expect(tty.stderr).toMatch(/fetched 260 members, chamber 1 of 10/)
    expect(tty.stderr.endsWith('\r\u001b[2K')).toBe(true)
    const piped = await run(['report', 'members', '-o', 'ndjson'], {
      stderrIsTTY: true,
      stdoutIsPipe: true,
    })
    expect(piped.stderr).toBe('')
    const quiet = await run(['report', 'members', '-o', 'ndjson', '-q'], { stderrIsTTY: true })
    expect(quiet.stderr).toBe('')
  })
})

describe('report members: streaming', () => {
  it('writes the first rows before the server has answered for a later page', async () => {
    // Pages of 100: the big demo chamber's last page is held until rows are on stdout.
    const last = Math.ceil(BIG_CHAMBER_MEMBERS / 100)
    const gate = await startGate(
      sandbox().sandbox,
      (method, url) => method === 'GET' && url.includes(`/members?page=${last}&`),
    )
    try {
      const session = startSession(['report', 'members', '-o', 'ndjson'], {
        env: { ...credentialsEnv(sandbox(), gate.baseUrl('v2')), CHAMBERCTL_CONFIG_DIR: tempDir() },
      })
      await gate.whenHeld(1)
      await until(session.stdout, /(\{"chamber_id":"ch_0001".*\n){200}/)
      expect(gate.held()).toHaveLength(1)
      gate.open()
      expect((await session.done).code).toBe(0)
    } finally {
      await gate.close()
    }
  })
})

describe('report members on API v1', () => {
  it.each([
    ['--type', 'hq'],
    ['--status', 'active'],
    ['--member-status', 'active'],
  ])('refuses %s before any request', async (flag, value) => {
    sandbox().reset()
    const { code, stderr } = await run(['report', 'members', flag, value], {
      env: { CHAMBERCTL_BASE_URL: sandbox().v1 },
    })
    expect(code).toBe(2)
    expect(stderr).toContain(`${flag} needs API v2`)
    expect(sandbox().requests.filter((r) => r.path.includes('/chambers'))).toHaveLength(0)
  })

  it('reports every member without filters', async () => {
    const expected = await expectedRows()
    const { code, stdout } = await run(['report', 'members', '--json'], {
      env: { CHAMBERCTL_BASE_URL: sandbox().v1 },
    })
    expect(code).toBe(0)
    expect((JSON.parse(stdout) as Row[]).map((row) => row.id)).toEqual(
      expected.map((row) => row.id),
    )
  })
})

describe('report members: odd answers', () => {
  const tempDir = useTempDirs('chamberctl-report-')
  const page = (data: unknown[]) => ({
    body: { data, meta: { current_page: 1, per_page: 100, total: data.length } },
  })
  const CHAMBERS = [
    { id: 'ch_a', name: 'Alpha', address: { city: 'Aachen' } },
    // Gone by the time its members are asked for.
    { id: 'ch_gone', name: 'Gone', address: { city: 'Nowhere' } },
    // A number for an id, no name, no address.
    { id: 7 },
  ]
  const api = useFakeApi({
    answer: ({ path }: FakeRequest) => {
      if (path.startsWith('/v2/chambers?')) return page(CHAMBERS)
      if (path.startsWith('/v2/chambers/ch_a/members')) {
        return page([
          { id: 'm1', name: '=HYPERLINK("x")', email: 'a@x.example', chamber_name: 'theirs' },
        ])
      }
      if (path.startsWith('/v2/chambers/7/members')) {
        return page([{ id: 2, name: 'Seven', email: 's@x.example', extra: { deep: [1] } }])
      }
      return { status: 404, body: { error: 'chamber not found' } }
    },
  })
  const report = (args: string[]) =>
    runMain(['report', 'members', ...args], {
      env: {
        CHAMBERCTL_CONFIG_DIR: tempDir(),
        CHAMBERCTL_BASE_URL: api().baseUrl(),
        CHAMBERCTL_CLIENT_ID: 'ci',
        CHAMBERCTL_CLIENT_SECRET: 'secret-report',
      },
    })

  it('skips a chamber that vanished, says so, and ends with exit 1', async () => {
    const { code, stdout, stderr } = await report(['--json'])
    expect(code).toBe(1)
    // The rows of the others, as a whole JSON array, the chamber's values as listed.
    expect(JSON.parse(stdout)).toEqual([
      {
        chamber_id: 'ch_a',
        chamber_name: 'Alpha',
        chamber_city: 'Aachen',
        id: 'm1',
        name: '=HYPERLINK("x")',
        email: 'a@x.example',
      },
      {
        chamber_id: '7',
        chamber_name: null,
        chamber_city: null,
        id: 2,
        name: 'Seven',
        email: 's@x.example',
        extra: { deep: [1] },
      },
    ])
    expect(stderr).toMatch(/warning: chamber ch_gone was listed but is gone \(404\)/)
    expect(stderr).toContain('the report lacks the members of 1 chamber: ch_gone')
  })

  it('guards a formula in CSV', async () => {
    const { stdout } = await report(['-o', 'csv'])
    expect(parseCsv(stdout)[1]![4]).toBe(`'=HYPERLINK("x")`)
  })
})
