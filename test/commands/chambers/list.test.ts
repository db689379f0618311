// `chambers list` in every output format, with filters, sort and paging, against a real sandbox.
import { describe, expect, it } from 'vitest'
import { CHAMBER_IDS } from '../../helpers/sandbox.js'
import { useDemoSandbox } from '../../helpers/run-main.js'
import { ANSI, idsOf, lines, ndjson, parseCsv, tsvColumn } from '../../helpers/output.js'

const { sandbox, run, demo } = useDemoSandbox()
const chamberIds = (filter: (c: (typeof demo.chambers)[number]) => boolean) =>
  demo.chambers.filter(filter).map((c) => c.id)

const LIST_COLUMNS = ['id', 'name', 'type', 'hq_id', 'status', 'address.city', 'created_at']

describe('chambers list: output formats', () => {
  it('prints a table with a header row on a TTY', async () => {
    const { code, stdout, stderr } = await run(['chambers', 'list'], {
      stdoutIsTTY: true,
      stdoutWidth: 200,
      env: { NO_COLOR: '1' },
    })
    expect(code, stderr).toBe(0)
    const rows = lines(stdout)
    // No borders: a header row, columns two spaces apart.
    expect(rows[0]!.split(/ {2,}/)).toEqual(LIST_COLUMNS)
    expect(stdout).not.toMatch(/[│┌─]/)
    for (const chamber of demo.chambers) {
      expect(stdout).toContain(chamber.id)
      expect(stdout).toContain(chamber.name)
    }
    expect(stdout).not.toMatch(ANSI)
  })

  it('fits the table to the terminal width, cutting long cells with an ellipsis', async () => {
    const { code, stdout } = await run(['chambers', 'list'], {
      stdoutIsTTY: true,
      stdoutWidth: 80,
      env: { NO_COLOR: '1' },
    })
    expect(code).toBe(0)
    for (const line of lines(stdout)) expect([...line].length).toBeLessThanOrEqual(80)
    expect(stdout).toContain('…')
    expect(stdout).toContain('ch_0010')
  })

  it('colours the table header with FORCE_COLOR=1 and not with NO_COLOR=1', async () => {
    const forced = await run(['chambers', 'list'], {
      stdoutIsTTY: true,
      env: { FORCE_COLOR: '1' },
    })
    expect(forced.code).toBe(0)
    expect(forced.stdout).toContain('\u001b[1mid\u001b[22m')
    const plain = await run(['chambers', 'list'], { stdoutIsTTY: true, env: { NO_COLOR: '1' } })
    expect(plain.code).toBe(0)
    expect(plain.stdout).not.toMatch(ANSI)
    expect(plain.stdout).toMatch(/^id {2}/)
  })

  it('prints tab-separated rows without header, colour or borders in a pipe', async () => {
    const { code, stdout, stderr } = await run(['chambers', 'list'], {
      env: { FORCE_COLOR: '1' },
    })
    expect(code, stderr).toBe(0)
    const rows = lines(stdout).map((line) => line.split('\t'))
    expect(rows).toHaveLength(10)
    expect(rows[0]).toEqual([
      'ch_0001',
      'Berlin Chamber of Commerce',
      'hq',
      '',
      'active',
      'Berlin',
      '2024-01-15T09:00:00.000Z',
    ])
    expect(rows[4]).toEqual([
      'ch_0005',
      'Potsdam Chamber',
      'subsidiary',
      'ch_0001',
      'active',
      'Potsdam',
      '2024-01-27T09:00:00.000Z',
    ])
    expect(stdout).not.toMatch(ANSI)
    expect(stdout).not.toMatch(/[│┌─]/)
    // No truncation in a pipe, whatever the width.
    expect(stdout).toContain('Munich Chamber of Industry and Commerce')
  })

  it('prints one JSON array with --json, keeping every field', async () => {
    const { code, stdout } = await run(['chambers', 'list', '--json'])
    expect(code).toBe(0)
    const records = JSON.parse(stdout) as unknown[]
    expect(records).toEqual(demo.chambers.slice(0, 10))
  })

  it('prints one JSON object per line with -o ndjson', async () => {
    const { code, stdout } = await run(['chambers', 'list', '-o', 'ndjson'])
    expect(code).toBe(0)
    expect(lines(stdout)).toHaveLength(10)
    expect(ndjson(stdout)).toEqual(demo.chambers)
  })

  it('prints CSV with a header row and the address JSON-encoded in one cell', async () => {
    const { code, stdout } = await run(['chambers', 'list', '-o', 'csv'])
    expect(code).toBe(0)
    const rows = parseCsv(stdout)
    expect(rows[0]).toEqual(LIST_COLUMNS)
    expect(rows).toHaveLength(11)
    expect(rows.slice(1).map((row) => row[0])).toEqual(CHAMBER_IDS)

    const withAddress = parseCsv(
      (await run(['chambers', 'list', '-o', 'csv', '--fields', 'id,address'])).stdout,
    )
    expect(withAddress[0]).toEqual(['id', 'address'])
    expect(withAddress[1]).toHaveLength(2)
    expect(JSON.parse(withAddress[1]![1]!)).toEqual(demo.chambers[0]!.address)
    expect(JSON.parse(withAddress[6]![1]!)).toEqual({
      city: 'Cottbus',
      postal_code: '03046',
      country: 'DE',
    })
  })

  it('picks columns with --fields in a table', async () => {
    const { code, stdout } = await run(['chambers', 'list', '--fields', 'id,address.city'], {
      stdoutIsTTY: true,
      env: { NO_COLOR: '1' },
    })
    expect(code).toBe(0)
    expect(lines(stdout)[0]!.split(/ {2,}/)).toEqual(['id', 'address.city'])
    expect(stdout).not.toContain('Berlin Chamber of Commerce')
    expect(stdout).toContain('Berlin')
  })

  it('picks columns with --fields in TSV', async () => {
    const { code, stdout } = await run(['chambers', 'list', '--fields', 'id,address.city'])
    expect(code).toBe(0)
    expect(lines(stdout)[0]).toBe('ch_0001\tBerlin')
    expect(lines(stdout).every((line) => line.split('\t').length === 2)).toBe(true)
  })

  it('picks keys with --fields in JSON and ndjson, nested paths keeping their shape', async () => {
    const json = await run(['chambers', 'list', '--json', '--fields', 'id,address.city'])
    expect(json.code).toBe(0)
    expect((JSON.parse(json.stdout) as unknown[])[0]).toEqual({
      id: 'ch_0001',
      address: { city: 'Berlin' },
    })
    const nd = await run(['chambers', 'list', '-o', 'ndjson', '--fields', 'name'])
    expect(ndjson(nd.stdout)[9]).toEqual({ name: 'Graz Chamber' })
  })
})

describe('chambers list: filters and sort', () => {
  it.each([
    [['--type', 'hq'], chamberIds((c) => c.type === 'hq')],
    [['--type', 'subsidiary'], chamberIds((c) => c.type === 'subsidiary')],
    [
      ['--status', 'pending'],
      ['ch_0004', 'ch_0008'],
    ],
    [['--status', 'inactive'], ['ch_0006']],
    [
      ['--type', 'hq', '--status', 'active'],
      ['ch_0001', 'ch_0002', 'ch_0003'],
    ],
  ])('%j selects the matching chambers', async (flags, expected) => {
    const { code, stdout } = await run(['chambers', 'list', ...flags])
    expect(code).toBe(0)
    expect(tsvColumn(stdout)).toEqual(expected)
  })

  it('has 4 HQs and 6 subsidiaries', () => {
    expect(chamberIds((c) => c.type === 'hq')).toHaveLength(4)
    expect(chamberIds((c) => c.type === 'subsidiary')).toHaveLength(6)
  })

  it.each([
    [
      'name',
      [
        'ch_0008',
        'ch_0001',
        'ch_0006',
        'ch_0010',
        'ch_0002',
        'ch_0007',
        'ch_0003',
        'ch_0009',
        'ch_0005',
        'ch_0004',
      ],
    ],
    ['-created_at', [...CHAMBER_IDS].reverse()],
  ])('--sort %s orders the chambers', async (sort, expected) => {
    const { code, stdout } = await run(['chambers', 'list', '--sort', sort])
    expect(code).toBe(0)
    expect(tsvColumn(stdout)).toEqual(expected)
  })

  it('combines a filter with a descending sort', async () => {
    const { stdout } = await run(['chambers', 'list', '--type', 'subsidiary', '--sort', '-name'])
    expect(tsvColumn(stdout, 1)).toEqual([
      'Potsdam Chamber',
      'Nuremberg Chamber',
      'Lübeck Chamber',
      'Graz Chamber',
      'Cottbus Chamber',
      'Augsburg Chamber',
    ])
  })
})

describe('chambers list: paging', () => {
  it('addresses one page with --page and --per-page', async () => {
    const { code, stdout } = await run(['chambers', 'list', '--page', '2', '--per-page', '3'])
    expect(code).toBe(0)
    expect(tsvColumn(stdout)).toEqual(['ch_0004', 'ch_0005', 'ch_0006'])
    const last = await run(['chambers', 'list', '--page', '4', '--per-page', '3', '--json'])
    expect(idsOf(JSON.parse(last.stdout) as unknown[])).toEqual(['ch_0010'])
  })

  it('prints [] for a page past the end with --json', async () => {
    const { code, stdout } = await run(['chambers', 'list', '--page', '9', '--json'])
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toEqual([])
  })

  it('walks every page with --all at a small page size', async () => {
    sandbox().reset()
    const { code, stdout } = await run(['chambers', 'list', '--all', '--per-page', '3'])
    expect(code).toBe(0)
    expect(tsvColumn(stdout)).toEqual(CHAMBER_IDS)
    const pages = sandbox().requests.filter((r) => r.path.startsWith('/v2/chambers?'))
    expect(pages.map((r) => new URL(r.path, 'http://x').searchParams.get('page')).sort()).toEqual([
      '1',
      '2',
      '3',
      '4',
    ])
  })

  it('stops at --limit across pages', async () => {
    const { code, stdout } = await run(['chambers', 'list', '--limit', '4', '--per-page', '3'])
    expect(code).toBe(0)
    expect(tsvColumn(stdout)).toEqual(CHAMBER_IDS.slice(0, 4))
  })
})
