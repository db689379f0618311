// `report duplicates`: none in the demo directory (exit 0); planted ones found exactly, as a
// group each, in every output form, exit 1. The sandbox refuses a second copy of an address in
// one chamber, so copies within a chamber, in NFD, come from the fake API.
import { beforeAll, describe, expect, it } from 'vitest'
import { runMain, useDemoSandbox } from '../../helpers/run-main.js'
import { useFakeApi } from '../../helpers/fake-api.js'
import type { FakeRequest } from '../../helpers/fake-api.js'
import { useTempDirs } from '../../helpers/sandbox.js'
import { lines, ndjson, parseCsv } from '../../helpers/output.js'
import { parse as parseYaml } from 'yaml'

type Document = {
  groups: { key: string; copies: Record<string, unknown>[] }[]
  counts: Record<string, number>
}

describe('report duplicates in the demo directory', () => {
  const { run, demo } = useDemoSandbox()

  it('finds none in the demo directory: exit 0', async () => {
    const { code, stdout, stderr } = await run(['report', 'duplicates', '--json'])
    expect(code, stderr).toBe(0)
    expect(JSON.parse(stdout)).toEqual({
      groups: [],
      counts: { chambers: 10, members: demo.members.length, groups: 0, copies: 0 },
    })
    expect(stderr).toContain(`No e-mail address is shared among ${demo.members.length} members`)
  })
})

describe('report duplicates with copies planted across chambers', () => {
  const { sandbox, run, demo } = useDemoSandbox()
  const ada = demo.members.find((m) => m.chamber_id === 'ch_0001')!
  const capitalised = ada.email.replace(/^./, (c) => c.toUpperCase())

  beforeAll(async () => {
    const add = (chamber: string, name: string, email: string) =>
      run([
        ...['members', 'add', chamber, '--name', name, '--email', email],
        ...['--membership-type', 'standard', '-y'],
      ])
    // The same address in another letter case, in two other chambers.
    expect((await add('ch_0002', 'Copy One', ada.email.toUpperCase())).code).toBe(0)
    expect((await add('ch_0003', 'Copy Two', capitalised)).code).toBe(0)
    // NFC in one chamber, NFD in another.
    expect((await add('ch_0002', 'Zoë', 'zo\u00eb@example.org')).code).toBe(0)
    expect((await add('ch_0005', 'Zoe', 'ZOE\u0308@example.org')).code).toBe(0)
  })

  it('finds exactly the copies planted: exit 1', async () => {
    sandbox().reset()
    const { code, stdout } = await run(['report', 'duplicates', '--json'])
    expect(code).toBe(1)
    const document = JSON.parse(stdout) as Document
    expect(
      document.groups.map((g) => [g.key, g.copies.map((c) => [c.chamber_id, c.email])]),
    ).toEqual([
      [
        ada.email,
        [
          ['ch_0001', ada.email],
          ['ch_0002', ada.email.toUpperCase()],
          ['ch_0003', capitalised],
        ],
      ],
      [
        'zo\u00eb@example.org',
        [
          ['ch_0002', 'zo\u00eb@example.org'],
          ['ch_0005', 'ZOE\u0308@example.org'],
        ],
      ],
    ])
    expect(document.groups[0]!.copies[0]).toEqual({
      chamber_id: 'ch_0001',
      chamber_name: 'Berlin Chamber of Commerce',
      member_id: ada.id,
      name: ada.name,
      email: ada.email,
    })
    expect(document.counts).toEqual({
      chambers: 10,
      members: demo.members.length + 4,
      groups: 2,
      copies: 5,
    })
    // Read again: only the pages holding candidates, not the big chamber's other two.
    const again = sandbox().requests.filter((r) => r.path.includes('/ch_0001/members'))
    expect(again.map((r) => new URL(r.path, 'http://x').searchParams.get('page'))).toEqual([
      '1',
      '2',
      '3',
      '1',
    ])
    // -o yaml prints the same document.
    const yaml = await run(['report', 'duplicates', '-o', 'yaml'])
    expect(yaml.code).toBe(1)
    expect(parseYaml(yaml.stdout)).toEqual(document)
  })

  it('prints the same groups as rows in a pipe, CSV and ndjson, and a table on a terminal', async () => {
    const tsv = await run(['report', 'duplicates'])
    expect(tsv.code).toBe(1)
    const rows = lines(tsv.stdout).map((line) => line.split('\t'))
    expect(rows).toHaveLength(5)
    expect(rows.map((row) => row[1])).toEqual([
      'ch_0001',
      'ch_0002',
      'ch_0003',
      'ch_0002',
      'ch_0005',
    ])
    expect(new Set(rows.slice(0, 3).map((row) => row[0])).size).toBe(1)
    expect(tsv.stderr).toContain('2 e-mail addresses are shared by 5 members')

    const csv = parseCsv((await run(['report', 'duplicates', '-o', 'csv'])).stdout)
    expect(csv[0]).toEqual(['key', 'chamber_id', 'chamber_name', 'member_id', 'name', 'email'])
    expect(csv.slice(1)).toEqual(rows)

    const nd = ndjson(
      (await run(['report', 'duplicates', '-o', 'ndjson', '--fields', 'key,member_id'])).stdout,
    )
    expect(nd.map((row) => Object.keys(row))).toEqual(Array(5).fill(['key', 'member_id']))

    const table = await run(['report', 'duplicates', '--wide'], {
      stdoutIsTTY: true,
      env: { NO_COLOR: '1' },
    })
    const shown = lines(table.stdout)
    expect(shown[0]!.split(/ {2,}/)[0]).toBe('key')
    // The key heads its group's first row only.
    expect(shown.filter((line) => line.startsWith(rows[0]![0]!))).toHaveLength(1)
    expect(shown).toHaveLength(6)

    const jq = await run(['report', 'duplicates', '--json', '--jq', '.groups[].key'])
    expect(lines(jq.stdout)).toEqual([rows[0]![0], 'zo\u00eb@example.org'])
  })

  it('refuses --member-status on API v1 before any request', async () => {
    sandbox().reset()
    const { code, stderr } = await run(['report', 'duplicates', '--member-status', 'active'], {
      env: { CHAMBERCTL_BASE_URL: sandbox().v1 },
    })
    expect(code).toBe(2)
    expect(stderr).toContain('--member-status needs API v2')
    expect(sandbox().requests.filter((r) => r.path.includes('/chambers'))).toHaveLength(0)
  })
})

describe('report duplicates: copies within one chamber, odd answers', () => {
  const tempDir = useTempDirs('chamberctl-duplicates-')
  const page = (data: unknown[]) => ({
    body: { data, meta: { current_page: 1, per_page: 100, total: data.length } },
  })
  const MEMBERS: Record<string, unknown[]> = {
    ch_a: [
      { id: 'a1', name: 'Ann', email: 'ann@example.com' },
      { id: 'a2', name: 'Ann again', email: 'ANN@Example.com' },
      { id: 'a3', name: 'No address', email: null },
      { id: 'a4', name: 'Müller', email: 'mu\u0308ller@example.de' },
    ],
    ch_b: [
      { id: 'b1', name: 'Müller', email: 'm\u00fcller@example.de' },
      { id: 'b2', name: 'Other', email: 'other@example.com' },
    ],
  }
  // ch_b answers its first read only, when the test says so.
  let goneOnSecondRead = false
  let bReads = 0
  const api = useFakeApi({
    answer: ({ path }: FakeRequest) => {
      if (path.startsWith('/v2/chambers?')) {
        return page([
          { id: 'ch_a', name: 'A' },
          { id: 'ch_b', name: 'B' },
          { id: 'ch_gone', name: 'Gone' },
        ])
      }
      const id = /^\/v2\/chambers\/([^/]+)\/members/.exec(path)?.[1]
      if (id === 'ch_b' && ++bReads > 1 && goneOnSecondRead) return undefined
      if (id && MEMBERS[id]) return page(MEMBERS[id])
      return { status: 404, body: { error: 'chamber not found' } }
    },
  })
  const report = (args: string[] = []) =>
    runMain(['report', 'duplicates', '--json', ...args], {
      env: {
        CHAMBERCTL_CONFIG_DIR: tempDir(),
        CHAMBERCTL_BASE_URL: api().baseUrl(),
        CHAMBERCTL_CLIENT_ID: 'ci',
        CHAMBERCTL_CLIENT_SECRET: 'secret-duplicates',
      },
    })

  it('groups copies within a chamber and across, NFD with NFC; warns of the one gone', async () => {
    const { code, stdout, stderr } = await report(['--debug'])
    expect(code).toBe(1)
    const document = JSON.parse(stdout) as Document
    expect(document.groups.map((g) => [g.key, g.copies.map((c) => c.member_id)])).toEqual([
      ['ann@example.com', ['a1', 'a2']],
      ['m\u00fcller@example.de', ['a4', 'b1']],
    ])
    expect(document.counts).toEqual({ chambers: 3, members: 6, groups: 2, copies: 4 })
    expect(stderr).toContain('warning: chamber ch_gone was listed but is gone (404)')
    expect(stderr).toMatch(/debug: the e-mail index of 6 members held 8,192 bytes/)
  })

  it('says a chamber gone between the two reads, and leaves its copies out', async () => {
    goneOnSecondRead = true
    bReads = 0
    const { code, stdout, stderr } = await report()
    goneOnSecondRead = false
    expect(code).toBe(1)
    const document = JSON.parse(stdout) as Document
    expect(document.groups.map((g) => g.key)).toEqual(['ann@example.com'])
    expect(stderr).toContain('warning: chamber ch_b was listed but is gone (404)')
    expect(stderr).toContain('the report lacks the members of 2 chambers: ch_gone, ch_b')
  })
})
