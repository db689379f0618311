// `members add`: one member from flags, a file or stdin, with --dry-run, local validation and the
// server's 422; `--from-file` in bulk (formats, bad rows, 1,000 rows at --concurrency 8, the
// progress bar on a terminal, Ctrl-C); never prompting without a terminal; and the prompts on
// one, driven by keystrokes. Against a real sandbox, in-process.
import { describe, expect, it } from 'vitest'
import { NOW, credentialsEnv, withSandbox } from '../../helpers/sandbox.js'
import { summaryLine, lines, ndjson, parseCsv } from '../../helpers/output.js'
import type { RunOptions } from '../../helpers/run-main.js'
import type { SandboxFixture } from '../../helpers/sandbox.js'
import { startFakeApi } from '../../helpers/fake-api.js'
import { startSession } from '../../helpers/run-main.js'
import { KEY, SandboxReader, finishes } from '../../helpers/session.js'
import {
  MEMBER_POSTS,
  NOT_PROMPTING,
  stdinOnTerminal,
  NO_TERMINAL,
  memberRows,
  screenLines,
  tableRecord,
  toNdjson,
  tsvRecord,
  useWriteSandbox,
} from '../../helpers/writes.js'
import type { Row } from '../../helpers/writes.js'
import type { Rec } from '../../sandbox/helpers.js'

const {
  sandbox,
  demo,
  state,
  sessionEnv,
  posts,
  file,
  addMembers,
  emptyChamber,
  interactive,
  silentSession,
} = useWriteSandbox()

const MEMBER_TSV = ['id', 'name', 'email', 'phone', 'membership_type', 'status', 'joined_at']

type Result = {
  row: number
  status: string
  id?: string
  email?: string
  error?: { status: number | null; code: string; message: string; fields?: object }
  record?: Rec
  input?: Rec
}

// The cells of a table's lines, header first, cut where the header's columns start (a cell may
// be empty).
function tableRows(stdout: string): string[][] {
  const [header = '', ...rows] = lines(stdout)
  const starts = [...header.matchAll(/\S+/g)].map((match) => match.index)
  return [header, ...rows].map((line) =>
    starts.map((start, i) => line.slice(start, starts[i + 1]).trim()),
  )
}

function emailsIn(rows: readonly Row[]): string[] {
  return rows.map((row) => row.email!)
}

function emailsOf(records: readonly Record<string, unknown>[]): string[] {
  return records.map((record) => String(record.email)).sort()
}

// A sandbox of its own whose every answer takes 5 ms, so that requests in flight overlap.
function withSlowSandbox(
  test: (fixture: SandboxFixture, slow: SandboxReader) => Promise<void>,
): Promise<void> {
  return withSandbox({ now: () => NOW, latencyMs: 5 }, (fixture) =>
    test(fixture, new SandboxReader(fixture.sandbox)),
  )
}

function expectSummary(stderr: string, summary: string | RegExp): void {
  expect(screenLines(stderr).at(-1)).toMatch(summary)
}

describe('members add: one member', () => {
  const ADA = { name: 'Ada Test', email: 'ada.test@example.com', membership_type: 'premium' }
  const adaFlags = ['--name', ADA.name, '--email', ADA.email, '--membership-type', 'premium']

  it('adds from flags, prints TSV in a pipe and confirms on stderr', async () => {
    const chamber = await emptyChamber('Single Flags')
    const { code, stdout, stderr } = await addMembers(chamber, [...adaFlags, '--phone', '+49 1'])
    expect(code, stderr).toBe(0)
    const printed = tsvRecord(stdout, MEMBER_TSV)
    expect(printed).toMatchObject({ ...ADA, phone: '+49 1', status: 'active' })
    expect(stderr).toBe(`Added member ${printed.id} (${ADA.email}) to chamber ${chamber}\n`)
    expect(await state().members(chamber)).toEqual([
      expect.objectContaining({ id: printed.id, ...ADA, phone: '+49 1' }),
    ])
  })

  it('prints the JSON object with --json', async () => {
    const chamber = await emptyChamber('Single JSON')
    const { code, stdout } = await addMembers(chamber, [...adaFlags, '--json'])
    expect(code).toBe(0)
    const printed = JSON.parse(stdout) as Rec
    expect(printed).toMatchObject({ ...ADA, chamber_id: chamber, phone: null })
    expect(await state().members(chamber)).toEqual([printed])
  })

  it('adds addresses as the world writes them, and lists them back unchanged', async () => {
    const chamber = await emptyChamber('World Addresses')
    const emails = ['müller@example.de', 'a%b@example.com', 'x@bücher.de', '"a b"@example.com']
    for (const email of emails) {
      const flags = ['--name', 'M', '--email', email, '--membership-type', 'standard']
      const { code, stderr } = await addMembers(chamber, flags)
      expect(code, stderr).toBe(0)
    }
    expect((await state().members(chamber)).map((m) => m.email)).toEqual(emails)
  })

  it('--skip-existing skips a row whose address the chamber has in another spelling', async () => {
    const chamber = await emptyChamber('Other Spelling')
    const flags = ['--name', 'M', '--email', 'Müller@bücher.de', '--membership-type', 'standard']
    expect((await addMembers(chamber, flags)).code).toBe(0)
    const rows = [
      { name: 'N', email: 'mu\u0308ller@xn--bcher-kva.de', membership_type: 'standard' },
      { name: 'O', email: 'müller@example.de', membership_type: 'standard' },
    ]
    const source = file('spellings.ndjson', toNdjson(rows))
    const { code, stdout } = await addMembers(chamber, [
      ...['--from-file', source, '--skip-existing', '--json'],
    ])
    expect(code).toBe(0)
    expect((JSON.parse(stdout) as Result[]).map((r) => r.status)).toEqual(['skipped', 'created'])
    expect(await state().members(chamber)).toHaveLength(2)
  })

  it('takes a file holding one JSON object as a single add, flags overriding it', async () => {
    const chamber = await emptyChamber('Single File')
    const source = file('member.json', JSON.stringify({ ...ADA, phone: '030 123' }))
    const { code, stdout, stderr } = await addMembers(chamber, [
      ...['--from-file', source, '--membership-type', 'honorary'],
    ])
    expect(code, stderr).toBe(0)
    // The record itself, not a bulk result line.
    const printed = tsvRecord(stdout, MEMBER_TSV)
    expect(printed).toMatchObject({ email: ADA.email, membership_type: 'honorary' })
    expect(stderr).toBe(`Added member ${printed.id} (${ADA.email}) to chamber ${chamber}\n`)
    expect(await state().members(chamber)).toEqual([
      expect.objectContaining({ ...ADA, phone: '030 123', membership_type: 'honorary' }),
    ])
  })

  it('prints the body with --dry-run and sends nothing', async () => {
    const { code, stdout, stderr } = await addMembers('ch_0003', [...adaFlags, '--dry-run'])
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toEqual(ADA)
    expect(stderr).toBe(`Dry run: would send POST ${sandbox().v2}/chambers/ch_0003/members\n`)
    expect(posts(MEMBER_POSTS)).toEqual([])
  })

  it.each<[string, string[], string[]]>([
    [
      'every missing value',
      [],
      [`error: missing --name, --email, --membership-type ${NOT_PROMPTING}`],
    ],
    [
      'an invalid e-mail',
      ['--name', 'X', '--email', 'not-an-email', '--membership-type', 'standard'],
      ['error: member is not valid: email', '  email  must be a valid e-mail address'],
    ],
    [
      'missing values and an invalid one, all in one round',
      ['--email', 'not-an-email'],
      [
        `error: member is not valid: email; missing --name, --membership-type ${NOT_PROMPTING}`,
        '  email  must be a valid e-mail address',
      ],
    ],
  ])('refuses %s with exit 2, sending nothing', async (_, args, expected) => {
    const { code, stdout, stderr } = await addMembers('ch_0003', args)
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(lines(stderr)).toEqual(expected)
    expect(posts(MEMBER_POSTS)).toEqual([])
  })
})

describe('members add --from-file - on a terminal', () => {
  // stdin is read once: after the record's end of input, a prompt would close at once.
  it('asks nothing, stdin having been the input: exit 2 naming what is missing', async () => {
    const { code, stdout, stderr } = await addMembers(
      'ch_0003',
      ['--from-file', '-'],
      stdinOnTerminal('{"name":"Ada From Stdin"}'),
    )
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe(
      'error: missing --email, --membership-type (not prompting: stdin was the input, --from-file -)\n',
    )
    expect(posts(MEMBER_POSTS)).toEqual([])
  })
})

describe('members add --from-file: bulk', () => {
  // Runs a bulk add into a fresh chamber; the results are NDJSON (a pipe, no -o).
  async function bulk(name: string, args: string[], options?: RunOptions) {
    const chamber = await emptyChamber(name)
    const result = await addMembers(chamber, args, options)
    return { chamber, ...result, results: () => ndjson<Result>(result.stdout) }
  }

  // Every result created, in input order, and the sandbox holding exactly those records.
  async function expectAllCreated(chamber: string, results: Result[], emails: string[]) {
    expect(results.map((r) => [r.row, r.status])).toEqual(emails.map((_, i) => [i + 1, 'created']))
    expect(results.map((r) => r.email)).toEqual(emails)
    const held = await state().members(chamber)
    expect(held.map((m) => m.id).sort()).toEqual(results.map((r) => r.id).sort())
    expect(emailsOf(held)).toEqual([...emails].sort())
  }

  it('adds the objects of a JSON array, one NDJSON result per row', async () => {
    const rows = memberRows(3, 'array')
    const { chamber, code, stderr, results } = await bulk('Bulk Array', [
      '--from-file',
      file('members.json', JSON.stringify(rows)),
    ])
    expect(code, stderr).toBe(0)
    await expectAllCreated(chamber, results(), emailsIn(rows))
    expect(results()[0]!.record).toMatchObject({ ...rows[0], chamber_id: chamber })
    expect(results()[0]).not.toHaveProperty('error')
    expectSummary(stderr, summaryLine('3 created'))
  })

  it('adds NDJSON from stdin, skipping empty lines', async () => {
    const rows = memberRows(3, 'ndjson')
    const [first, second, third] = rows.map((row) => JSON.stringify(row))
    const stdin = `${first}\n\n${second}\r\n   \n${third}`
    const { chamber, code, stderr, results } = await bulk('Bulk NDJSON', ['--from-file', '-'], {
      stdin,
    })
    expect(code, stderr).toBe(0)
    await expectAllCreated(chamber, results(), emailsIn(rows))
  })

  it('reads CSV with a BOM, CRLF, quoted commas, doubled quotes and empty lines', async () => {
    const csv =
      '\uFEFFname,email,phone,membership_type\r\n' +
      '"Lovelace, Ada",ada@csv.example.com,,standard\r\n' +
      '\r\n' +
      '"Grace ""Amazing"" Hopper",grace@csv.example.com,"+1 (555) 0100",premium\r\n' +
      ',,,\r\n' +
      'Plain Name,plain@csv.example.com,030 1,student\r\n'
    const { chamber, code, stderr, results } = await bulk('Bulk CSV', [
      '--from-file',
      file('members.csv', csv),
    ])
    expect(code, stderr).toBe(0)
    const emails = ['ada@csv.example.com', 'grace@csv.example.com', 'plain@csv.example.com']
    await expectAllCreated(chamber, results(), emails)
    const held = new Map((await state().members(chamber)).map((m) => [m.email, m]))
    expect(held.get(emails[0])).toMatchObject({ name: 'Lovelace, Ada', phone: null })
    expect(held.get(emails[1])).toMatchObject({
      name: 'Grace "Amazing" Hopper',
      phone: '+1 (555) 0100',
      membership_type: 'premium',
    })
    expect(held.get(emails[2])).toMatchObject({ name: 'Plain Name', phone: '030 1' })
  })

  it('refuses a CSV header without a required column once, exit 2, nothing sent', async () => {
    const csv = 'name,emial,phone\nAda,ada@example.com,1\nAlan,alan@example.com,2\n'
    const { code, stdout, stderr } = await bulk('Bulk No Column', [
      '--from-file',
      file('members.csv', csv),
    ])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(lines(stderr)).toEqual([
      expect.stringMatching(
        /^error: \S+members\.csv: header \(line 1\): no email, membership_type column: every member needs it \(or give --email, --membership-type\); unknown column emial \(did you mean email\?\)$/,
      ),
    ])
    expect(sandbox().requests).toEqual([])
  })

  it('takes a flag for a column the CSV header lacks', async () => {
    const csv = 'name,email\nAda,ada@flag.example.com\n'
    const { chamber, code, stderr, results } = await bulk('Bulk Flag Column', [
      '--from-file',
      file('members.csv', csv),
      '--membership-type',
      'standard',
    ])
    expect(code, stderr).toBe(0)
    await expectAllCreated(chamber, results(), ['ada@flag.example.com'])
  })

  it('reports 2 bad rows of 10 in input order, creating the 8 others (exit 1)', async () => {
    const chamber = await emptyChamber('Bulk Bad Rows')
    await state().api.create(`/chambers/${chamber}/members`, {
      name: 'Already There',
      email: 'taken@example.com',
      membership_type: 'standard',
    })
    sandbox().reset()
    const rows = memberRows(10, 'bad')
    rows[2] = { ...rows[2]!, email: 'no-at-sign' } // invalid: never sent
    rows[6] = { ...rows[6]!, email: 'taken@example.com' } // refused by the server
    const { code, stdout, stderr } = await addMembers(chamber, [
      '--from-file',
      file('rows.ndjson', toNdjson(rows)),
    ])
    expect(code).toBe(1)
    const results = ndjson<Result>(stdout)
    expect(results.map((r) => r.row)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(results.map((r) => r.status)).toEqual([
      ...['created', 'created', 'failed', 'created', 'created', 'created', 'failed'],
      ...['created', 'created', 'created'],
    ])
    expect(results[2]).toMatchObject({
      email: 'no-at-sign',
      error: {
        status: null,
        code: 'invalid',
        message: 'email must be a valid e-mail address',
        fields: { email: ['must be a valid e-mail address'] },
      },
      input: rows[2],
    })
    expect(results[6]).toMatchObject({
      email: 'taken@example.com',
      error: {
        status: 422,
        code: 'validation_failed',
        fields: { email: [`taken@example.com is already a member of ${chamber}`] },
      },
    })
    const created = results.filter((r) => r.status === 'created')
    expect(created).toHaveLength(8)
    const all = await state().members(chamber)
    expect(all).toHaveLength(9)
    const held = all.filter((m) => m.email !== 'taken@example.com')
    expect(held.map((m) => m.id).sort()).toEqual(created.map((r) => r.id).sort())
    // The invalid row was never sent; the others were sent once each.
    expect(posts(MEMBER_POSTS)).toHaveLength(9)
    // Neither failure can succeed when sent again (one is invalid, the server refused the other
    // for good): no --resume is advised.
    expect(screenLines(stderr)).toEqual([
      expect.stringMatching(summaryLine('8 created, 1 invalid, 1 failed')),
    ])
  })

  it('lets flags override that field in every row', async () => {
    const rows = memberRows(3, 'override').map((row, i) => ({ ...row, membership_type: `t${i}` }))
    const { chamber, code, stderr } = await bulk('Bulk Override', [
      ...['--from-file', file('rows.json', JSON.stringify(rows)), '--membership-type', 'corporate'],
    ])
    expect(code, stderr).toBe(0)
    const held = await state().members(chamber)
    expect(held).toHaveLength(3)
    expect(held.map((m) => m.membership_type)).toEqual(['corporate', 'corporate', 'corporate'])
  })

  it('validates every row with --dry-run and sends nothing', async () => {
    const rows = [...memberRows(2, 'dry'), { name: 'No Email', membership_type: 'standard' }]
    const { chamber, code, stderr, results } = await bulk('Bulk Dry', [
      ...['--from-file', file('rows.json', JSON.stringify(rows)), '--dry-run'],
    ])
    expect(code).toBe(1)
    expect(results().map((r) => [r.row, r.status])).toEqual([
      [1, 'valid'],
      [2, 'valid'],
      [3, 'failed'],
    ])
    expect(results()[2]!.error?.message).toBe('email is required')
    expect(posts(MEMBER_POSTS)).toEqual([])
    expect(await state().members(chamber)).toEqual([])
    expectSummary(stderr, /^2 valid, 1 invalid$/)
  })

  const FORMATS: [string, (stdout: string) => string[][]][] = [
    ['tsv', (stdout) => lines(stdout).map((line) => line.split('\t'))],
    ['csv', (stdout) => parseCsv(stdout).slice(1)],
    [
      'json',
      (stdout) =>
        (JSON.parse(stdout) as Result[]).map((r) => [
          String(r.row),
          r.status,
          r.id ?? '',
          r.email ?? '',
          r.error?.message ?? '',
        ]),
    ],
    ['table', (stdout) => tableRows(stdout).slice(1)],
  ]

  it.each(FORMATS)('prints the results with -o %s', async (format, parse) => {
    const rows = [
      ...memberRows(2, `fmt-${format}`),
      { name: 'Bad', email: 'bad', membership_type: 's' },
    ]
    const { code, stdout } = await bulk(`Bulk ${format}`, [
      ...['--from-file', file('rows.json', JSON.stringify(rows)), '-o', format],
    ])
    expect(code).toBe(1)
    const table = parse(stdout)
    expect(table.map((cells) => cells.slice(0, 2))).toEqual([
      ['1', 'created'],
      ['2', 'created'],
      ['3', 'failed'],
    ])
    expect(table.map((cells) => cells[3])).toEqual([rows[0]!.email, rows[1]!.email, 'bad'])
    expect(table[0]![2]).toMatch(/^mb_\d+$/)
    expect(table[2]![4]).toBe('email must be a valid e-mail address')
    if (format === 'csv') {
      expect(lines(stdout)[0]).toBe('row,status,id,email,error.message')
    }
  })

  it('refuses unreadable input with exit 2 and sends nothing', async () => {
    const { code, stdout, stderr } = await addMembers('ch_0003', ['--from-file', '-'], {
      stdin: '[{"name":"A","email":"a@example.com","membership_type":"s"},',
    })
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/^error: stdin: line 1, column \d+: /)
    expect(sandbox().requests).toEqual([])
  })

  it('creates 1,000 rows exactly once each, never more than 8 requests in flight, on 8 connections', async () => {
    await withSlowSandbox(async (fixture, slow) => {
      const chamber = await slow.emptyChamber('Bulk Thousand')
      const before = await slow.api.total(`/chambers/${chamber}/members`)
      const proxy = await startFakeApi({
        upstream: fixture.sandbox.url,
        counts: ({ method, path }) => method === 'POST' && path.endsWith('/members'),
      })
      try {
        const rows = memberRows(1000, 'k')
        const { code, stdout, stderr } = await addMembers(
          chamber,
          ['--from-file', '-', '--concurrency', '8'],
          { stdin: toNdjson(rows), env: credentialsEnv(fixture, proxy.baseUrl('v2')) },
        )
        expect(code, stderr).toBe(0)
        const results = ndjson<Result>(stdout)
        expect(results.map((r) => r.row)).toEqual(rows.map((_, i) => i + 1))
        expect(results.filter((r) => r.status !== 'created')).toEqual([])
        expect(await slow.api.total(`/chambers/${chamber}/members`)).toBe(before + 1000)
        const held = await slow.members(chamber)
        expect(new Set(held.map((m) => m.email)).size).toBe(1000)
        expect(emailsOf(held)).toEqual(emailsOf(rows))
        const sent = fixture.requests.filter(
          (r) => r.method === 'POST' && MEMBER_POSTS.test(r.path),
        )
        expect(sent).toHaveLength(1000)
        // Each answer takes 5 ms, so a client allowing more would be seen with more.
        expect(proxy.maxOpen()).toBeLessThanOrEqual(8)
        expect(proxy.maxOpen()).toBeGreaterThan(1)
        // The token request's connection is used again; no connection beyond one per worker.
        expect(proxy.connections()).toBe(8)
        expectSummary(stderr, summaryLine('1,000 created'))
      } finally {
        await proxy.close()
      }
    })
  })

  // Where each occurrence of `marker` starts on the terminal: after a line break, or after the
  // progress bar was taken off its line; never after the bar's text.
  function startsOfLines(screen: string, marker: string): string[] {
    return screen
      .split(marker)
      .slice(0, -1)
      .map((before) =>
        before === '' || before.endsWith('\n') || before.endsWith('\r\u001b[2K')
          ? 'clean'
          : before.slice(-30),
      )
  }

  // The progress bar's frames: each is drawn from the start of its line.
  function frames(stderr: string): string[] {
    return stderr
      .split('\u001b[1G')
      .slice(1)
      .map((frame) => frame.split('\u001b[0K')[0]!)
  }

  const BULK_ROWS = [
    ...memberRows(3, 'p'),
    { name: 'Invalid', email: 'not-an-address', membership_type: 's' },
  ]

  function bulkOnTerminal(chamber: string, extra: string[]) {
    return startSession(
      [
        'members',
        'add',
        chamber,
        '--from-file',
        file('p.json', JSON.stringify(BULK_ROWS)),
        ...extra,
      ],
      { env: sessionEnv(), stdoutIsTTY: true, stderrIsTTY: true, stdoutWidth: 100, combined: true },
    )
  }

  it('on a terminal: a bar that stays, then only the failed rows and the summary', async () => {
    const chamber = await emptyChamber('Bulk Progress')
    const session = bulkOnTerminal(chamber, [])
    const { code, stdout, stderr } = await finishes(session)
    expect(code).toBe(1)
    // The invalid row is never sent; the last frame counts every row that was, and stays.
    expect(frames(stderr).at(-1)).toMatch(/^█{24} 3\/3 rows \| [\d,]+\/s \| ETA 0s$/)
    // The last frame ends its line and stays.
    expect(stderr).toContain('ETA 0s\u001b[0K\u001b[?7h\u001b8\n')
    const shown = screenLines(stdout)
    expect(shown).toHaveLength(2)
    // The reason before the e-mail: at 60 columns it is the e-mail that is left out.
    expect(shown[0]).toMatch(/^row +status +reason +email$/)
    expect(shown[1]).toMatch(/^4 +invalid +email must be a valid e-mail address +not-an-address$/)
    expect(startsOfLines(session.screen(), stdout.slice(0, 8))).toEqual(['clean'])
    expectSummary(stderr, summaryLine('3 created, 1 invalid'))
  })

  it('on a terminal with --verbose: every row', async () => {
    const chamber = await emptyChamber('Bulk Verbose')
    const { code, stdout } = await finishes(bulkOnTerminal(chamber, ['--verbose']))
    expect(code).toBe(1)
    const shown = screenLines(stdout)
    expect(shown[0]).toMatch(/^row +status +id +email +error\.message$/)
    expect(shown.slice(1).map((line) => line.split(/ +/)[1])).toEqual([
      'created',
      'created',
      'created',
      'failed',
    ])
  })

  it('on a terminal with -o ndjson: every row, each on a clean line under the bar', async () => {
    const chamber = await emptyChamber('Bulk Ndjson')
    const session = bulkOnTerminal(chamber, ['-o', 'ndjson'])
    const { code, stdout, stderr } = await finishes(session)
    expect(code).toBe(1)
    expect(ndjson<{ status: string }>(stdout).map((r) => r.status)).toEqual([
      'created',
      'created',
      'created',
      'failed',
    ])
    expect(startsOfLines(session.screen(), '{"row"')).toEqual(Array(4).fill('clean'))
    expect(frames(stderr).at(-1)).toMatch(/ 3\/3 rows \| /)
    expectSummary(stderr, summaryLine('3 created, 1 invalid'))
  })
})

describe('members add --from-file: Ctrl-C', () => {
  it('stops sending, reports every row and exits 130', async () => {
    await withSlowSandbox(async (fixture, slow) => {
      const chamber = await slow.emptyChamber('Interrupted')
      const rows = memberRows(60, 'int')
      let createdLines = 0
      let interrupted = false
      const session = startSession(
        ['members', 'add', chamber, '--from-file', file('rows.ndjson', toNdjson(rows))],
        {
          env: sessionEnv(fixture),
          onStdout: (chunk) => {
            createdLines += chunk.split('"status":"created"').length - 1
            if (createdLines >= 5 && !interrupted) {
              interrupted = true
              session.interrupt()
            }
          },
        },
      )
      const { code, stdout, stderr } = await finishes(session, 10_000)
      expect(code).toBe(130)
      const results = ndjson<Result>(stdout)
      expect(results.map((r) => r.row)).toEqual(rows.map((_, i) => i + 1))
      const created = results.filter((r) => r.status === 'created')
      const notSent = results.filter((r) => r.status === 'not_sent')
      expect(created.length).toBeGreaterThanOrEqual(5)
      expect(notSent.length).toBeGreaterThan(0)
      expect(created.length + notSent.length).toBe(60)
      const held = await slow.members(chamber)
      expect(emailsOf(held)).toEqual(emailsOf(created))
      expect(held.map((m) => m.id).sort()).toEqual(created.map((r) => r.id).sort())
      // A row not sent is reported with what it would have sent.
      expect(notSent.map((r) => [r.email, r.input])).toEqual(
        notSent.map((r) => [rows[r.row - 1]!.email, rows[r.row - 1]]),
      )
      expect(stderr).toContain('Interrupted: finishing the requests in flight…')
      expect(lines(stderr).at(-2)).toMatch(
        summaryLine(`${created.length} created, ${notSent.length} not sent`, ' (interrupted)'),
      )
      expect(lines(stderr).at(-1)).toBe(
        `To continue, run the same command with --resume: it sends only the ${notSent.length} rows not yet created`,
      )
    })
  })
})

describe("the server's 422: exit 2 with the fields", () => {
  it('shows email for an address already in the chamber, also as JSON with --json', async () => {
    const taken = demo.members.find((m) => m.chamber_id === 'ch_0003')!
    const { code, stdout, stderr } = await addMembers('ch_0003', [
      ...['--name', 'Someone Else', '--email', taken.email, '--membership-type', 'standard'],
      '--json',
    ])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    const [message, field, json] = lines(stderr)
    expect(message).toBe('error: validation failed (HTTP 422)')
    expect(field).toBe(`  email  ${taken.email} is already a member of ch_0003`)
    expect(JSON.parse(json!)).toEqual({
      error: {
        status: 422,
        code: 'validation_failed',
        message: 'validation failed (HTTP 422)',
        fields: { email: [`${taken.email} is already a member of ch_0003`] },
      },
    })
    const sameEmail = (await state().members('ch_0003')).filter((m) => m.email === taken.email)
    expect(sameEmail).toHaveLength(1)
  })
})

describe('never prompting and never waiting without a terminal', () => {
  it.each(NO_TERMINAL)(
    'members add with %s: exit 2 naming every missing flag',
    async (_, flags, env, options) => {
      const running = silentSession(
        ['members', 'add', 'ch_0003', '--phone', '1', ...flags],
        env,
        options,
      )
      const { code, stderr } = await finishes(running)
      expect(code).toBe(2)
      expect(stderr).toBe(`error: missing --name, --email, --membership-type ${NOT_PROMPTING}\n`)
      expect(posts(MEMBER_POSTS)).toEqual([])
    },
  )

  it.each(NO_TERMINAL)(
    'a bulk add from a file with %s finishes without confirmation',
    async (_, flags, env, options) => {
      const chamber = await emptyChamber('Bulk Quiet')
      const rows = memberRows(2, 'quiet')
      const running = silentSession(
        [
          'members',
          'add',
          chamber,
          '--from-file',
          file('rows.json', JSON.stringify(rows)),
          ...flags,
        ],
        env,
        options,
      )
      const { code, stderr } = await finishes(running)
      expect(code, stderr).toBe(0)
      expect(await state().members(chamber)).toHaveLength(2)
    },
  )
})

describe('interactive prompts on a terminal', () => {
  it('members add with every required flag and --yes asks nothing, not even the phone', async () => {
    const { session, prompts } = interactive([
      ...['members', 'add', 'ch_0001', '--name', 'No Questions', '--email', 'noq@example.com'],
      ...['--membership-type', 'standard', '--yes'],
    ])
    const { code, stdout, stderr } = await finishes(session)
    expect(code, stderr).toBe(0)
    expect(prompts.text()).not.toMatch(/\?/)
    expect(tableRecord(stdout)).toMatchObject({ name: 'No Questions', email: 'noq@example.com' })
  })

  it('members add with every required flag asks nothing, not even for a confirmation', async () => {
    const { session, prompts } = interactive([
      ...['members', 'add', 'ch_0001', '--name', 'Only Flags', '--email', 'of@example.com'],
      ...['--membership-type', 'standard'],
    ])
    const { code, stderr } = await finishes(session)
    expect(code, stderr).toBe(0)
    expect(prompts.text()).not.toMatch(/\?|About to/)
    expect(posts(MEMBER_POSTS)).toEqual(['201 /v2/chambers/ch_0001/members'])
  })

  it('refuses a bad --email before asking anything', async () => {
    const { session, prompts } = interactive(['members', 'add', 'ch_0001', '--email', 'nope'])
    const { code, stderr } = await finishes(session)
    expect(code).toBe(2)
    expect(prompts.text()).not.toMatch(/\? Name/)
    expect(screenLines(stderr)).toEqual([
      'error: member is not valid: email',
      '  email  must be a valid e-mail address',
    ])
  })

  it('members add asks name, e-mail (again when invalid), phone and an existing type', async () => {
    const { session, prompts } = interactive(['members', 'add', 'ch_0001'])
    await prompts.answer(/\? Name/, `Prompted Person${KEY.enter}`)
    await prompts.answer(/\? E-mail/, `not-an-email${KEY.enter}`)
    await prompts.answer(
      /must be a valid e-mail address/,
      `${KEY.clearLine}prompted@example.com${KEY.enter}`,
    )
    await prompts.answer(/\? Phone \(optional\)/, `+49 30 555${KEY.enter}`)
    await prompts.next(/\? Membership type/)
    // Offered, once loaded: the types the chamber's members already have.
    const { match } = await prompts.next(/❯ [a-z]+\n(?: {2}[a-z]+\n)+/)
    const offered = lines(match).map((line) => line.replace(/^❯? */, ''))
    expect(offered.sort()).toEqual(['corporate', 'honorary', 'premium', 'standard', 'student'])
    session.stdin.write('prem')
    await prompts.answer(/❯ premium/, KEY.enter)
    const summary = await prompts.next(/\? Add this member\?/)
    expect(summary.before).toContain('  email:           prompted@example.com')
    session.stdin.write(KEY.enter)
    const { code, stdout, stderr } = await finishes(session)
    expect(code, stderr).toBe(0)
    const printed = tableRecord(stdout)
    expect(await state().members('ch_0001')).toContainEqual(
      expect.objectContaining({
        id: printed.id,
        name: 'Prompted Person',
        email: 'prompted@example.com',
        phone: '+49 30 555',
        membership_type: 'premium',
      }),
    )
    expect(posts(MEMBER_POSTS)).toEqual(['201 /v2/chambers/ch_0001/members'])
  })
  it('members add answered no at the confirmation: a quiet "Cancelled", exit 1, nothing sent', async () => {
    const { session, prompts } = interactive([
      ...['members', 'add', 'ch_0001', '--email', 'no@example.com', '--membership-type', 'x'],
    ])
    await prompts.answer(/\? Name/, `Declined Person${KEY.enter}`)
    await prompts.answer(/\? Phone \(optional\)/, KEY.enter)
    await prompts.answer(/\? Add this member\?/, `n${KEY.enter}`)
    const { code, stdout, stderr } = await finishes(session)
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(screenLines(stderr).at(-1)).toBe('Cancelled')
    expect(stderr).not.toMatch(/error/)
    expect(posts(MEMBER_POSTS)).toEqual([])
  })
})
