// --jq: real jq over the JSON output, once over the document or once per record with -o ndjson.
// The parity cases' outputs are what the jq binary prints (`jq -r`, compact) for the sandbox's
// demo chambers, written out by hand.
import { describe, expect, it, vi } from 'vitest'
import { BIG_CHAMBER, BIG_CHAMBER_MEMBERS, useSandbox } from '../helpers/sandbox.js'
import { useCommands } from '../helpers/run-main.js'
import { lines, ndjson } from '../helpers/output.js'

const sandbox = useSandbox()
const { run } = useCommands(sandbox)
const ALL_MEMBERS = ['members', 'list', BIG_CHAMBER, '--all']

const PARITY: [expression: string, output: string][] = [
  ['.[0].name', 'Berlin Chamber of Commerce'],
  ['length', '10'],
  ['.[] | select(.type == "hq") | .id', 'ch_0001\nch_0002\nch_0003\nch_0004'],
  ['.[0].hq_id // "none"', 'none'],
  ['.[4].hq_id // "none"', 'ch_0001'],
  [
    'map(.hq_id) | map(. // "-") | join(",")',
    '-,-,-,-,ch_0001,ch_0001,ch_0002,ch_0003,ch_0003,ch_0004',
  ],
  ['map(select(.status == "active")) | length', '7'],
  ['[.[].status] | unique', '["active","inactive","pending"]'],
  [
    'group_by(.type) | map({type: .[0].type, n: length})',
    '[{"type":"hq","n":4},{"type":"subsidiary","n":6}]',
  ],
  [
    '.[0].address',
    '{"street":"Fasanenstr. 85","city":"Berlin","postal_code":"10623","country":"DE"}',
  ],
  ['.[0].address | keys', '["city","country","postal_code","street"]'],
  [
    '.[0] | del(.address, .created_at)',
    '{"id":"ch_0001","name":"Berlin Chamber of Commerce","type":"hq","hq_id":null,"status":"active"}',
  ],
  ['.[0].missing', 'null'],
  ['.[0] | .id, .type', 'ch_0001\nhq'],
  ['empty', ''],
  ['"\\(.[0].id)-\\(.[1].id)"', 'ch_0001-ch_0002'],
  ['[limit(2; .[])] | map(.id)', '["ch_0001","ch_0002"]'],
  ['map(.id) | index("ch_0003")', '2'],
  ['[.[] | select(.address.city | startswith("Au")) | .name]', '["Augsburg Chamber"]'],
  ['min_by(.name).name', 'Augsburg Chamber'],
  ['max_by(.id).id', 'ch_0010'],
  ['reduce .[] as $c (0; . + 1)', '10'],
  ['.[0].name | ascii_downcase | split(" ") | .[0]', 'berlin'],
  ['.[0].id | sub("ch_"; "chamber-")', 'chamber-0001'],
  ['.[0].name | test("commerce"; "i")', 'true'],
  ['.[6].address.city | length', '6'],
  ['.[0] | [.id, .name] | @csv', '"ch_0001","Berlin Chamber of Commerce"'],
  ['.[0] | [.id, .type] | @tsv', 'ch_0001\thq'],
  ['.[0].id | @base64', 'Y2hfMDAwMQ=='],
  ['10 / 4', '2.5'],
  ['"two\\nlines"', 'two\nlines'],
  ['[.[] | {(.id): .address.city}] | add | .ch_0007', 'Lübeck'],
  ['to_entries | map(select(.value.type == "hq") | .key)', '[0,1,2,3]'],
  ['any(.[]; .status == "inactive"), all(.[]; .type == "hq")', 'true\nfalse'],
]

describe('--jq parity with the jq binary', () => {
  it.each(PARITY)('%s', async (expression, output) => {
    const result = await run(['chambers', 'list', '--jq', expression])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toBe(output === '' ? '' : `${output}\n`)
  })
})

describe('--jq', () => {
  it('runs once over the merged array of --all, and once per record with -o ndjson', async () => {
    const whole = await run([...ALL_MEMBERS, '--jq', 'length'])
    expect(whole.stdout).toBe(`${BIG_CHAMBER_MEMBERS}\n`)

    const each = await run([...ALL_MEMBERS, '-o', 'ndjson', '--jq', '{id, email}'])
    const records = ndjson<{ id: string; email: string }>(each.stdout)
    expect(records).toHaveLength(BIG_CHAMBER_MEMBERS)
    expect(Object.keys(records[0]!)).toEqual(['id', 'email'])
    expect(new Set(records.map((r) => r.id)).size).toBe(BIG_CHAMBER_MEMBERS)

    const json = await run([...ALL_MEMBERS, '--json'])
    const expected = (JSON.parse(json.stdout) as { email: string }[]).map((m) => m.email)
    const emails = await run([...ALL_MEMBERS, '-o', 'ndjson', '--jq', '.email'])
    expect(lines(emails.stdout)).toEqual(expected)
  })

  it('picks --fields first, then filters; works on a single record', async () => {
    const picked = await run(['chambers', 'list', '--fields', 'id,name', '--jq', '.[0] | keys'])
    expect(picked.stdout).toBe('["id","name"]\n')
    const one = await run(['chambers', 'get', 'ch_0005', '--jq', '.hq_id'])
    expect(one.stdout).toBe('ch_0001\n')
  })

  it('refuses a bad expression with jq`s message, exit 2, before any request', async () => {
    sandbox().reset()
    const result = await run(['chambers', 'list', '--jq', '.[0'])
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('error: --jq: jq: error: syntax error')
    expect(result.stderr).toContain('jq: 1 compile error')
    expect(sandbox().requests).toEqual([])
  })

  it.each([['table'], ['csv'], ['tsv'], ['yaml']])(
    'is a usage error with -o %s, before any request',
    async (format) => {
      sandbox().reset()
      const result = await run(['chambers', 'list', '-o', format, '--jq', '.'])
      expect(result.code).toBe(2)
      expect(result.stderr).toContain(
        `--jq filters JSON: use it with --json or -o ndjson, not -o ${format}`,
      )
      expect(sandbox().requests).toEqual([])
    },
  )

  it('is a usage error on a command that prints no JSON', async () => {
    const result = await run(['auth', 'token', '--jq', '.'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--jq filters JSON output; chamberctl auth token prints none')
  })

  it('prints jq`s runtime error, goes on with the other records like jq, and exits 1', async () => {
    // Only the hq chambers have an hq_id of null; `ascii_downcase` fails on them.
    const result = await run([
      'chambers',
      'list',
      '-o',
      'ndjson',
      '--jq',
      '.hq_id | ascii_downcase',
    ])
    expect(result.code).toBe(1)
    expect(lines(result.stdout)).toEqual([
      'ch_0001',
      'ch_0001',
      'ch_0002',
      'ch_0003',
      'ch_0003',
      'ch_0004',
    ])
    expect(result.stderr.match(/jq: error .*explode input must be a string/g)).toHaveLength(4)
  })

  it('filters what `api` prints, with and without --paginate', async () => {
    const one = await run(['api', '/chambers/ch_0002', '--jq', '.address.city'])
    expect(one).toMatchObject({ code: 0, stdout: 'Hamburg\n' })

    const paged = await run([
      'api',
      `/chambers/${BIG_CHAMBER}/members?per_page=50`,
      '--paginate',
      '--jq',
      'length',
    ])
    expect(paged).toMatchObject({ code: 0, stdout: `${BIG_CHAMBER_MEMBERS}\n` })

    const each = await run(['api', '/chambers', '--paginate', '-o', 'ndjson', '--jq', '.id'])
    expect(lines(each.stdout)).toHaveLength(10)
    expect(lines(each.stdout)[9]).toBe('ch_0010')
  })

  it('filters the body of a dry run', async () => {
    const create = 'chambers create --dry-run --name Kiel --type hq --address-field city=Kiel'
    const dry = await run([...create.split(' '), '--jq', '.address.city'])
    expect(dry).toMatchObject({ code: 0, stdout: 'Kiel\n' })
  })

  it('ends a jq that runs out of memory in one line of ours, exit 1, nothing else said', async () => {
    const printed = vi.spyOn(console, 'error')
    // A string larger than jq's memory, for every merged array (of the input's length, so that
    // jq builds it when it runs).
    const result = await run(['report', 'members', '-q', '--jq', '"x" * (300000000 + length)'])
    expect(result).toMatchObject({ code: 1, stdout: '' })
    const message =
      "--jq: jq ran out of memory (jq's WebAssembly build has 256 MiB); filter it record by record with -o ndjson --jq, or narrow it with --limit or filters"
    // The line, and as JSON output asks, the error object.
    expect(lines(result.stderr)).toEqual([
      `error: ${message}`,
      JSON.stringify({ error: { status: null, code: 'jq_out_of_memory', message, fields: {} } }),
    ])
    expect(printed).not.toHaveBeenCalled()
    printed.mockRestore()
  })
})
