// `chambers get` in every output format, with --fields and --include, against a real sandbox.
import { describe, expect, it } from 'vitest'
import { useDemoSandbox } from '../../helpers/run-main.js'
import { ANSI, idsOf, lines, parseCsv, yamlDocuments } from '../../helpers/output.js'

const { sandbox, run, demo } = useDemoSandbox()

describe('chambers get', () => {
  const berlin = demo.chambers[0]!

  it('prints every field as key: value lines on a TTY, the address as a block, times as tables show them', async () => {
    const { code, stdout } = await run(['chambers', 'get', 'ch_0001'], {
      stdoutIsTTY: true,
      env: { NO_COLOR: '1' },
    })
    expect(code).toBe(0)
    expect(lines(stdout)).toEqual([
      'id:         ch_0001',
      'name:       Berlin Chamber of Commerce',
      'type:       hq',
      'hq_id:',
      'status:     active',
      'address:',
      `  street:      ${berlin.address!.street}`,
      '  city:        Berlin',
      `  postal_code: ${berlin.address!.postal_code}`,
      '  country:     DE',
      // To the second, as in `chambers list` (the server sent 2024-01-15T09:00:00.000Z).
      'created_at: 2024-01-15T09:00:00Z',
    ])
    expect(berlin.created_at).toBe('2024-01-15T09:00:00.000Z')
    expect(stdout).not.toMatch(ANSI)
  })

  it('prints one TSV row in a pipe', async () => {
    const { code, stdout } = await run(['chambers', 'get', 'ch_0005'])
    expect(code).toBe(0)
    expect(stdout).toBe(
      'ch_0005\tPotsdam Chamber\tsubsidiary\tch_0001\tactive\tPotsdam\t2024-01-27T09:00:00.000Z\n',
    )
  })

  it('prints the JSON object with --json and one line with -o ndjson', async () => {
    const json = await run(['chambers', 'get', 'ch_0001', '--json'])
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual(berlin)
    const nd = await run(['chambers', 'get', 'ch_0001', '-o', 'ndjson'])
    expect(lines(nd.stdout)).toHaveLength(1)
    expect(JSON.parse(nd.stdout)).toEqual(berlin)
  })

  it('prints one YAML mapping document with -o yaml, --fields and --include as in JSON', async () => {
    const yaml = await run(['chambers', 'get', 'ch_0001', '-o', 'yaml'])
    expect(yaml.code).toBe(0)
    expect(yaml.stdout).toMatch(/^id: ch_0001\nname: Berlin Chamber of Commerce\n/)
    expect(yamlDocuments(yaml.stdout)).toEqual([berlin])
    const picked = await run([
      'chambers',
      'get',
      'ch_0001',
      '-o',
      'yaml',
      '--fields',
      'id,address.city',
    ])
    expect(picked.stdout).toBe('id: ch_0001\naddress:\n  city: Berlin\n')
    const args = ['chambers', 'get', 'ch_0005', '--include', 'members,events']
    const json = await run([...args, '--json'])
    const included = await run([...args, '-o', 'yaml'])
    expect(yamlDocuments(included.stdout)).toEqual([JSON.parse(json.stdout)])
  })

  it('prints CSV with a header and the address in one JSON cell', async () => {
    const { code, stdout } = await run([
      'chambers',
      'get',
      'ch_0001',
      '-o',
      'csv',
      '--fields',
      'id,name,address',
    ])
    expect(code).toBe(0)
    const rows = parseCsv(stdout)
    expect(rows).toHaveLength(2)
    expect(rows[0]).toEqual(['id', 'name', 'address'])
    expect(rows[1]!.slice(0, 2)).toEqual(['ch_0001', 'Berlin Chamber of Commerce'])
    expect(JSON.parse(rows[1]![2]!)).toEqual(berlin.address)
  })

  it('picks keys with --fields', async () => {
    const { stdout } = await run(['chambers', 'get', 'ch_0001', '--json', '--fields', 'id,type'])
    expect(JSON.parse(stdout)).toEqual({ id: 'ch_0001', type: 'hq' })
    const tsv = await run(['chambers', 'get', 'ch_0001', '--fields', 'status,id'])
    expect(tsv.stdout).toBe('active\tch_0001\n')
  })

  it('embeds members and events as arrays in JSON with --include', async () => {
    const { code, stdout } = await run([
      'chambers',
      'get',
      'ch_0005',
      '--include',
      'members,events',
      '--json',
    ])
    expect(code).toBe(0)
    const chamber = JSON.parse(stdout) as { members: unknown[]; events: unknown[] }
    expect(idsOf(chamber.members)).toEqual(
      demo.members.filter((m) => m.chamber_id === 'ch_0005').map((m) => m.id),
    )
    expect(idsOf(chamber.events)).toEqual(
      demo.events.filter((e) => e.chamber_id === 'ch_0005').map((e) => e.id),
    )
    expect(chamber.members).toHaveLength(12)
    expect(chamber.events).toHaveLength(3)
  })

  it('shows the included lists as tables under headings on a TTY, by their totals in TSV', async () => {
    const table = await run(['chambers', 'get', 'ch_0001', '--include', 'members,events'], {
      stdoutIsTTY: true,
      stdoutWidth: 120,
      env: { NO_COLOR: '1' },
    })
    expect(table.code).toBe(0)
    const shown = lines(table.stdout)
    // The totals are said in the headings, not as fields.
    expect(shown.filter((line) => /_total:/.test(line))).toEqual([])
    const members = shown.indexOf('Members (20 of 260)')
    const events = shown.indexOf('Events (9)')
    expect(members).toBeGreaterThan(0)
    expect(events).toBeGreaterThan(members + 20)
    expect(shown[members + 1]).toMatch(/^id +name +email +phone +membership_type +status/)
    expect(shown[members + 2]).toMatch(
      /^mb_000001 {2}Ada Lovelace +ada\.lovelace@berlin\.example\.com /,
    )
    expect(shown[events + 1]).toMatch(/^id +title +status +starts_at/)
    const tsv = await run(['chambers', 'get', 'ch_0001', '--include', 'members,events'])
    expect(tsv.stdout.trimEnd().split('\t').slice(-2)).toEqual(['260', '9'])
  })

  it('says on stderr where an included list was cut and how to get all of it', async () => {
    const { code, stdout, stderr } = await run([
      'chambers',
      'get',
      'ch_0001',
      '--include',
      'members,events',
      '--json',
    ])
    expect(code).toBe(0)
    const chamber = JSON.parse(stdout) as { members: unknown[]; members_total: number }
    expect(chamber.members).toHaveLength(20)
    expect(chamber.members_total).toBe(260)
    expect(lines(stderr)).toEqual([
      'members: the first 20 of 260 shown; all of them: chamberctl members list ch_0001 --all',
    ])
    const quiet = await run(['chambers', 'get', 'ch_0001', '--include', 'members', '-q'])
    expect(quiet.stderr).toBe('')
  })

  it('percent-encodes the id in the path', async () => {
    sandbox().reset()
    const { code, stderr } = await run(['chambers', 'get', 'a/b c'])
    expect(code).toBe(3)
    expect(stderr).toContain('a/b c')
    const paths = sandbox().requests.map((r) => r.path)
    expect(paths).toContain('/v2/chambers/a%2Fb%20c')
  })
})
