// `events list` (v2): output formats, --status, --from/--to, paging.
import { describe, expect, it } from 'vitest'
import { BIG_CHAMBER } from '../../helpers/sandbox.js'
import { useDemoSandbox } from '../../helpers/run-main.js'
import { ANSI, idsOf, lines, ndjson, parseCsv, tsvColumn } from '../../helpers/output.js'

// NOW is 2025-06-18: the demo events of ch_0001 start 7, -23, 29, 23, -62, 62, -88, 84 and -28
// days from that day at 17:00 UTC.
const { sandbox, run, demo } = useDemoSandbox()
const events = demo.events.filter((e) => e.chamber_id === BIG_CHAMBER)
const COLUMNS = ['id', 'title', 'status', 'starts_at', 'ends_at', 'location']
const FORMS = '2026-12-05, 2026-12-05T03:00Z or 2026-12-05T03:00+01:00'
// The filter[...] parameters of the sandbox's one GET, decoded.
const sentFilters = () => {
  const get = sandbox().requests.find((r) => r.method === 'GET')!
  const query = new URL(get.path, 'http://sandbox').searchParams
  return Object.fromEntries([...query].filter(([key]) => key.startsWith('filter[')))
}

describe('events list: output formats', () => {
  it('prints a table on a TTY', async () => {
    const { code, stdout } = await run(['events', 'list', BIG_CHAMBER], {
      stdoutIsTTY: true,
      stdoutWidth: 240,
      env: { NO_COLOR: '1' },
    })
    expect(code).toBe(0)
    expect(lines(stdout)[0]!.split(/ {2,}/)).toEqual(COLUMNS)
    for (const event of events) expect(stdout).toContain(event.title)
    expect(stdout).not.toMatch(ANSI)
  })

  it('prints TSV rows without a header in a pipe', async () => {
    const { code, stdout } = await run(['events', 'list', BIG_CHAMBER])
    expect(code).toBe(0)
    const rows = lines(stdout).map((line) => line.split('\t'))
    expect(rows.map((row) => row[0])).toEqual(idsOf(events))
    expect(rows[0]).toEqual([
      'ev_0001',
      events[0]!.title,
      'upcoming',
      '2025-06-25T17:00:00.000Z',
      '2025-06-25T20:00:00.000Z',
      events[0]!.location,
    ])
  })

  it('prints JSON, ndjson and CSV, with --fields', async () => {
    expect(JSON.parse((await run(['events', 'list', BIG_CHAMBER, '--json'])).stdout)).toEqual(
      events,
    )
    expect(ndjson((await run(['events', 'list', BIG_CHAMBER, '-o', 'ndjson'])).stdout)).toEqual(
      events,
    )
    const csv = parseCsv((await run(['events', 'list', BIG_CHAMBER, '-o', 'csv'])).stdout)
    expect(csv[0]).toEqual(COLUMNS)
    expect(csv).toHaveLength(events.length + 1)
    const picked = await run(['events', 'list', BIG_CHAMBER, '--json', '--fields', 'id,status'])
    expect((JSON.parse(picked.stdout) as unknown[])[3]).toEqual({
      id: 'ev_0004',
      status: 'canceled',
    })
    const tsv = await run(['events', 'list', BIG_CHAMBER, '--fields', 'status'])
    expect(lines(tsv.stdout)).toEqual(events.map((e) => e.status))
  })

  it('pages with --per-page/--page and --limit', async () => {
    const page = await run(['events', 'list', BIG_CHAMBER, '--page', '2', '--per-page', '4'])
    expect(tsvColumn(page.stdout)).toEqual(['ev_0005', 'ev_0006', 'ev_0007', 'ev_0008'])
    const limited = await run(['events', 'list', BIG_CHAMBER, '--limit', '5', '--per-page', '2'])
    expect(tsvColumn(limited.stdout)).toEqual(idsOf(events.slice(0, 5)))
  })
})

describe('events list: filters', () => {
  it.each([
    ['upcoming', ['ev_0001', 'ev_0003', 'ev_0006', 'ev_0008']],
    ['past', ['ev_0002', 'ev_0005', 'ev_0007']],
    ['canceled', ['ev_0004', 'ev_0009']],
  ])('--status %s', async (status, expected) => {
    const { code, stdout } = await run(['events', 'list', BIG_CHAMBER, '--status', status])
    expect(code).toBe(0)
    expect(tsvColumn(stdout)).toEqual(expected)
    expect(idsOf(events.filter((e) => e.status === status))).toEqual(expected)
  })

  it('--from and --to select the events overlapping the range', async () => {
    const { code, stdout } = await run([
      'events',
      'list',
      BIG_CHAMBER,
      '--from',
      '2025-06-01',
      '--to',
      '2025-07-31',
    ])
    expect(code).toBe(0)
    expect(tsvColumn(stdout)).toEqual(['ev_0001', 'ev_0003', 'ev_0004'])
  })

  it('--to alone, a full timestamp, and --status combined', async () => {
    const past = await run(['events', 'list', BIG_CHAMBER, '--to', '2025-06-18T00:00:00Z'])
    expect(tsvColumn(past.stdout)).toEqual(['ev_0002', 'ev_0005', 'ev_0007', 'ev_0009'])
    const both = await run([
      'events',
      'list',
      BIG_CHAMBER,
      '--from',
      '2025-06-01',
      '--status',
      'upcoming',
    ])
    expect(tsvColumn(both.stdout)).toEqual(['ev_0001', 'ev_0003', 'ev_0006', 'ev_0008'])
  })

  it('refuses a malformed date before any request: exit 2', async () => {
    sandbox().reset()
    const { code, stderr } = await run(['events', 'list', BIG_CHAMBER, '--from', 'next tuesday'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/^error: --from next tuesday/)
    expect(sandbox().requests).toEqual([])
  })

  it.each([
    ['--from', '2026-02-30', '2026-02 has 28 days'],
    ['--to', '2026-04-31T10:00:00Z', '2026-04 has 30 days'],
    ['--from', '2025-02-29', '2025-02 has 28 days'],
  ])(
    'refuses %s %s, a day the calendar lacks, before any request: exit 2',
    async (flag, date, why) => {
      sandbox().reset()
      const { code, stderr } = await run(['events', 'list', BIG_CHAMBER, flag, date])
      expect(code).toBe(2)
      expect(stderr).toBe(
        `error: ${flag} ${date}: is not a day of the calendar (${why}); give ${FORMS}\n`,
      )
      expect(sandbox().requests).toEqual([])
    },
  )

  it('takes the 29th of February of a leap year and the 31st of a long month', async () => {
    sandbox().reset()
    const args = ['events', 'list', BIG_CHAMBER, '--from', '2024-02-29', '--to', '2025-12-31']
    const { code, stderr } = await run([...args, '--json'])
    expect(code, stderr).toBe(0)
    const [get] = sandbox().requests.filter((r) => r.method === 'GET')
    expect(decodeURIComponent(get!.path)).toMatch(/date_from\]=2024-02-29&.*date_to\]=2025-12-31/)
  })

  it('refuses --from after --to before any request: exit 2', async () => {
    sandbox().reset()
    const args = ['events', 'list', BIG_CHAMBER, '--from', '2025-07-01', '--to', '2025-06-01']
    const { code, stderr } = await run(args)
    expect(code).toBe(2)
    expect(stderr).toBe('error: --from 2025-07-01 is after --to 2025-06-01: no event could match\n')
    expect(sandbox().requests).toEqual([])
  })

  it('takes a date-only --to as the whole day: a time on that day is not after it', async () => {
    sandbox().reset()
    const args = [
      'events',
      'list',
      BIG_CHAMBER,
      '--from',
      '2025-06-01T18:00:00Z',
      '--to',
      '2025-06-01',
    ]
    const { code, stderr } = await run(args)
    expect(code, stderr).toBe(0)
    expect(sandbox().requests.map((r) => r.status)).toContain(200)
  })

  it.each(['2026-12-05T03:00', '2026-12-05T03:00:00', '2026-12-05T03:00:00.5'])(
    'refuses the date-time %s without Z or an offset before any request: exit 2',
    async (date) => {
      sandbox().reset()
      const { code, stderr } = await run(['events', 'list', BIG_CHAMBER, '--to', date])
      expect(code).toBe(2)
      expect(stderr).toBe(
        `error: --to ${date}: is a date-time without Z or an offset; give ${FORMS}\n`,
      )
      expect(sandbox().requests).toEqual([])
    },
  )

  it('sends a date as typed and a date-time as RFC 3339 has it: seconds, the offset with a colon', async () => {
    sandbox().reset()
    const args = ['--from', '2025-06-01T18:00+0200', '--to', '2025-07-31']
    expect((await run(['events', 'list', BIG_CHAMBER, ...args])).code).toBe(0)
    expect(sentFilters()).toEqual({
      'filter[date_from]': '2025-06-01T18:00:00+02:00',
      'filter[date_to]': '2025-07-31',
    })
    sandbox().reset()
    const z = ['--from', '2025-06-01T18:00Z', '--to', '2025-07-31T10:00:00.250-03:30']
    expect((await run(['events', 'list', BIG_CHAMBER, ...z])).code).toBe(0)
    expect(sentFilters()).toEqual({
      'filter[date_from]': '2025-06-01T18:00:00Z',
      'filter[date_to]': '2025-07-31T10:00:00.250-03:30',
    })
  })

  // A date is the server's calendar day, which may start at UTC+14:00 and end at UTC-12:00: set
  // against a date-time, the CLI refuses only a range that is empty however the day is read.
  it.each([
    ['2025-06-01T23:00-10:00', '2025-06-01', 'sent'],
    ['2025-06-02T11:59:59Z', '2025-06-01', 'sent'],
    ['2025-06-02T12:00Z', '2025-06-01', 'refused'],
    ['2025-06-02', '2025-06-01T10:00Z', 'sent'],
    ['2025-06-02', '2025-06-01T09:59:59Z', 'refused'],
    ['2025-06-02', '2025-06-01', 'refused'],
    ['2025-06-01T10:00+02:00', '2025-06-01T08:00Z', 'sent'],
    ['2025-06-01T10:00+02:00', '2025-06-01T07:59Z', 'refused'],
  ])('--from %s --to %s is %s', async (from, to, verdict) => {
    sandbox().reset()
    const { stderr } = await run(['events', 'list', BIG_CHAMBER, '--from', from, '--to', to])
    if (verdict === 'refused') {
      expect(stderr).toBe(`error: --from ${from} is after --to ${to}: no event could match\n`)
      expect(sandbox().requests).toEqual([])
    } else {
      expect(sandbox().requests.filter((r) => r.method === 'GET')).toHaveLength(1)
    }
  })

  it('refuses an unknown status: exit 2', async () => {
    const { code, stderr } = await run(['events', 'list', BIG_CHAMBER, '--status', 'soon'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/soon/)
  })
})
