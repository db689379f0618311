// `members list` in every output format, over the 260 members of ch_0001: --all, --limit,
// --page/--per-page, filters and sort.
import { describe, expect, it } from 'vitest'
import { BIG_CHAMBER, BIG_CHAMBER_MEMBERS } from '../../helpers/sandbox.js'
import { useDemoSandbox } from '../../helpers/run-main.js'
import {
  ANSI,
  idsOf,
  lines,
  ndjson,
  parseCsv,
  tsvColumn,
  yamlDocuments,
} from '../../helpers/output.js'

const { sandbox, run, demo } = useDemoSandbox()
const members = demo.members.filter((m) => m.chamber_id === BIG_CHAMBER)
const memberIds = members.map((m) => m.id)
const COLUMNS = ['id', 'name', 'email', 'phone', 'membership_type', 'status', 'joined_at']

// The pages the sandbox was asked for, as [page, per_page].
function pagesRequested(): [string | null, string | null][] {
  return sandbox()
    .requests.filter((r) => r.method === 'GET' && r.path.includes('/members'))
    .map((r) => new URL(r.path, 'http://x').searchParams)
    .map((q) => [q.get('page'), q.get('per_page')] as [string | null, string | null])
    .sort()
}

// The order the API documents: ascending or descending by one field, ties in creation order.
function sortedMembers(field: 'name' | 'joined_at', descending = false) {
  const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true })
  return members
    .map((member, index) => ({ member, index }))
    .sort(
      (a, b) =>
        (descending ? -1 : 1) *
          collator.compare(String(a.member[field]), String(b.member[field])) || a.index - b.index,
    )
    .map(({ member }) => member)
}

describe('members list: output formats', () => {
  it('has 260 members in the big demo chamber', () => {
    expect(members).toHaveLength(BIG_CHAMBER_MEMBERS)
  })

  it('prints a table with the default columns on a TTY', async () => {
    const { code, stdout } = await run(['members', 'list', BIG_CHAMBER], {
      stdoutIsTTY: true,
      stdoutWidth: 200,
      env: { NO_COLOR: '1' },
    })
    expect(code).toBe(0)
    expect(lines(stdout)[0]!.split(/ {2,}/)).toEqual(COLUMNS)
    expect(stdout).toContain(members[0]!.email)
    expect(stdout).toContain(members[19]!.id)
    expect(stdout).not.toContain(members[20]!.id)
    expect(stdout).not.toMatch(ANSI)
  })

  it('colours the table with FORCE_COLOR=1 only', async () => {
    const forced = await run(['members', 'list', BIG_CHAMBER], {
      stdoutIsTTY: true,
      env: { FORCE_COLOR: '1' },
    })
    expect(forced.stdout).toMatch(ANSI)
    const off = await run(['members', 'list', BIG_CHAMBER, '--no-color'], {
      stdoutIsTTY: true,
      env: { FORCE_COLOR: '1' },
    })
    expect(off.stdout).not.toMatch(ANSI)
  })

  it('prints the first page as TSV rows in a pipe', async () => {
    const { code, stdout } = await run(['members', 'list', BIG_CHAMBER])
    expect(code).toBe(0)
    const rows = lines(stdout).map((line) => line.split('\t'))
    expect(rows.map((row) => row[0])).toEqual(memberIds.slice(0, 20))
    const first = members[0]!
    expect(rows[0]).toEqual(COLUMNS.map((column) => String(first[column as 'id'] ?? '')))
    // The demo data leaves every fourth phone empty: an empty cell, not "null".
    expect(rows[3]![3]).toBe('')
  })

  it('prints JSON, ndjson and CSV', async () => {
    const json = await run(['members', 'list', BIG_CHAMBER, '--json'])
    expect(JSON.parse(json.stdout)).toEqual(members.slice(0, 20))
    const nd = await run(['members', 'list', BIG_CHAMBER, '-o', 'ndjson'])
    expect(ndjson(nd.stdout)).toEqual(members.slice(0, 20))
    const csv = parseCsv((await run(['members', 'list', BIG_CHAMBER, '-o', 'csv'])).stdout)
    expect(csv[0]).toEqual(COLUMNS)
    expect(csv.slice(1).map((row) => row[2])).toEqual(members.slice(0, 20).map((m) => m.email))
  })

  it.each([
    ['tsv', [], (out: string) => lines(out)[0]],
    ['csv', ['-o', 'csv'], (out: string) => lines(out).slice(0, 2).join('|')],
    ['json', ['--json'], (out: string) => JSON.stringify((JSON.parse(out) as unknown[])[0])],
    ['ndjson', ['-o', 'ndjson'], (out: string) => lines(out)[0]],
    [
      'yaml',
      ['-o', 'yaml'],
      (out: string) => JSON.stringify((yamlDocuments(out)[0] as unknown[])[0]),
    ],
  ])('picks fields with --fields in %s', async (format, flags, first) => {
    const { code, stdout } = await run([
      'members',
      'list',
      BIG_CHAMBER,
      ...flags,
      '--fields',
      'email,id',
    ])
    expect(code).toBe(0)
    const { email, id } = members[0]!
    const expected: Record<string, string> = {
      tsv: `${email}\t${id}`,
      csv: `email,id|${email},${id}`,
      json: JSON.stringify({ email, id }),
      ndjson: JSON.stringify({ email, id }),
      yaml: JSON.stringify({ email, id }),
    }
    expect(first(stdout)).toBe(expected[format])
  })

  it('prints one YAML document for a page: the sequence of its records', async () => {
    const { code, stdout } = await run(['members', 'list', BIG_CHAMBER, '-o', 'yaml'])
    expect(code).toBe(0)
    expect(yamlDocuments(stdout)).toEqual([members.slice(0, 20)])
    const limited = await run(['members', 'list', BIG_CHAMBER, '-o', 'yaml', '--limit', '150'])
    expect(yamlDocuments(limited.stdout)).toEqual([members.slice(0, 150)])
    const empty = await run(['members', 'list', 'ch_0010', '-o', 'yaml'])
    expect(empty.stdout).toBe('[]\n')
  })

  it('picks columns with --fields in a table', async () => {
    const { code, stdout } = await run(['members', 'list', BIG_CHAMBER, '--fields', 'email,id'], {
      stdoutIsTTY: true,
      stdoutWidth: 200,
      env: { NO_COLOR: '1' },
    })
    expect(code).toBe(0)
    const [header, first] = lines(stdout).map((line) => line.split(/ {2,}/))
    expect(header).toEqual(['email', 'id'])
    expect(first).toEqual([members[0]!.email, members[0]!.id])
  })

  it('prints "no members" on stderr for an empty chamber on a TTY, [] with --json', async () => {
    const table = await run(['members', 'list', 'ch_0010'], { stdoutIsTTY: true })
    expect(table.code).toBe(0)
    expect(table.stdout).toBe('')
    expect(table.stderr).toMatch(/no members/)
    const tsv = await run(['members', 'list', 'ch_0010'])
    expect(tsv.stdout).toBe('')
    expect((await run(['members', 'list', 'ch_0010', '--json'])).stdout).toBe('[]\n')
  })
})

describe('members list: --all, --limit and pages', () => {
  it.each([
    ['--json', (out: string) => idsOf(JSON.parse(out) as unknown[])],
    ['ndjson', (out: string) => idsOf(ndjson(out))],
    ['tsv', (out: string) => tsvColumn(out)],
    [
      'csv',
      (out: string) =>
        parseCsv(out)
          .slice(1)
          .map((row) => row[0]),
    ],
  ])('--all prints all 260 records in %s', async (format, ids) => {
    sandbox().reset()
    const flags = format === 'tsv' ? [] : format === '--json' ? ['--json'] : ['-o', format]
    const { code, stdout, stderr } = await run(['members', 'list', BIG_CHAMBER, '--all', ...flags])
    expect(code, stderr).toBe(0)
    expect(ids(stdout)).toEqual(memberIds)
    if (format === 'csv') expect(parseCsv(stdout)[0]).toEqual(COLUMNS)
    expect(pagesRequested()).toEqual([
      ['1', '100'],
      ['2', '100'],
      ['3', '100'],
    ])
  })

  it('--all -o yaml is a stream of one document a record, equal to the --json records', async () => {
    const json = await run(['members', 'list', BIG_CHAMBER, '--all', '--json'])
    const yaml = await run(['members', 'list', BIG_CHAMBER, '--all', '-o', 'yaml'])
    expect(yaml.code, yaml.stderr).toBe(0)
    const documents = yamlDocuments(yaml.stdout)
    expect(documents).toHaveLength(BIG_CHAMBER_MEMBERS)
    expect(yaml.stdout.match(/^---$/gm)).toHaveLength(BIG_CHAMBER_MEMBERS - 1)
    expect(documents).toEqual(JSON.parse(json.stdout))
  })

  it('--limit 150 prints exactly 150 records and fetches only the pages it needs', async () => {
    sandbox().reset()
    const { code, stdout } = await run(['members', 'list', BIG_CHAMBER, '--limit', '150'])
    expect(code).toBe(0)
    expect(tsvColumn(stdout)).toEqual(memberIds.slice(0, 150))
    expect(pagesRequested()).toEqual([
      ['1', '100'],
      ['2', '100'],
    ])
  })

  it('--limit below one page asks for just that many', async () => {
    sandbox().reset()
    const { stdout } = await run(['members', 'list', BIG_CHAMBER, '--limit', '5', '--json'])
    expect(idsOf(JSON.parse(stdout) as unknown[])).toEqual(memberIds.slice(0, 5))
    expect(pagesRequested()).toEqual([['1', '5']])
  })

  it('--limit with --per-page walks pages of that size', async () => {
    const { stdout } = await run([
      'members',
      'list',
      BIG_CHAMBER,
      '--limit',
      '23',
      '--per-page',
      '10',
    ])
    expect(tsvColumn(stdout)).toEqual(memberIds.slice(0, 23))
  })

  it('--page and --per-page address exactly one page', async () => {
    const { code, stdout } = await run([
      'members',
      'list',
      BIG_CHAMBER,
      '--page',
      '3',
      '--per-page',
      '7',
    ])
    expect(code).toBe(0)
    expect(tsvColumn(stdout)).toEqual([
      'mb_000015',
      'mb_000016',
      'mb_000017',
      'mb_000018',
      'mb_000019',
      'mb_000020',
      'mb_000021',
    ])
    const last = await run(['members', 'list', BIG_CHAMBER, '--page', '3', '--per-page', '100'])
    expect(tsvColumn(last.stdout)).toEqual(memberIds.slice(200))
  })

  it('--all from --page 2 is refused: exit 2 and no request', async () => {
    sandbox().reset()
    const { code, stdout, stderr } = await run([
      'members',
      'list',
      BIG_CHAMBER,
      '--all',
      '--page',
      '2',
    ])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/^error: .*--all.*--page/)
    expect(sandbox().requests).toEqual([])
  })

  it.each([['101'], ['0'], ['ten']])('--per-page %s is refused: exit 2', async (value) => {
    sandbox().reset()
    const { code, stderr } = await run(['members', 'list', BIG_CHAMBER, '--per-page', value])
    expect(code).toBe(2)
    expect(stderr).toMatch(/^error: .*--per-page.*1 to 100/)
    expect(sandbox().requests).toEqual([])
  })

  it('shows progress on a TTY stderr during --all, and none with -q', async () => {
    const shown = await run(['members', 'list', BIG_CHAMBER, '--all'], { stderrIsTTY: true })
    expect(shown.code).toBe(0)
    expect(shown.stderr).toMatch(/fetched \d+ of 260 members/)
    expect(tsvColumn(shown.stdout)).toHaveLength(260)
    const quiet = await run(['members', 'list', BIG_CHAMBER, '--all', '-q'], { stderrIsTTY: true })
    expect(quiet.stderr).toBe('')
  })
})

describe('members list: filters and sort', () => {
  it.each(['inactive', 'pending', 'active'])('--status %s', async (status) => {
    const { code, stdout } = await run([
      'members',
      'list',
      BIG_CHAMBER,
      '--status',
      status,
      '--all',
    ])
    expect(code).toBe(0)
    const expected = members.filter((m) => m.status === status).map((m) => m.id)
    expect(expected.length).toBeGreaterThan(0)
    expect(tsvColumn(stdout)).toEqual(expected)
  })

  it('--sort -joined_at orders by join date, newest first', async () => {
    const { code, stdout } = await run([
      'members',
      'list',
      BIG_CHAMBER,
      '--sort',
      '-joined_at',
      '--limit',
      '30',
      '--json',
    ])
    expect(code).toBe(0)
    const records = JSON.parse(stdout) as { joined_at: string }[]
    expect(idsOf(records)).toEqual(idsOf(sortedMembers('joined_at', true).slice(0, 30)))
    const dates = records.map((r) => r.joined_at)
    expect(dates).toEqual([...dates].sort().reverse())
  })

  it('--sort name with --status active across every page', async () => {
    const { stdout } = await run([
      'members',
      'list',
      BIG_CHAMBER,
      '--sort',
      'name',
      '--status',
      'active',
      '--all',
    ])
    const expected = sortedMembers('name').filter((m) => m.status === 'active')
    expect(tsvColumn(stdout)).toEqual(expected.map((m) => m.id))
  })

  it('refuses an unknown sort field before any request', async () => {
    sandbox().reset()
    const { code, stderr } = await run(['members', 'list', BIG_CHAMBER, '--sort', 'shoe_size'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/^error: --sort shoe_size/)
    expect(sandbox().requests).toEqual([])
  })
})
