// `export`: keys from names, hq by key or hq_id, what is left out and said so, filters, unknown
// ids, and streaming. A MockAgent server sends what a real one may (extra fields, nulls,
// numbers, odd addresses); the streaming test holds back the sandbox's last page of members
// until the first ones are on stdout.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { MockAgent } from 'undici'
import { afterEach, describe, expect, it } from 'vitest'
import { main } from '../../../src/cli/main.js'
import { Keys, slug } from '../../../src/commands/export/keys.js'
import { NameOrder } from '../../../src/commands/export/order.js'
import {
  BIG_CHAMBER,
  BIG_CHAMBER_MEMBERS,
  credentialsEnv,
  useSandbox,
  useTempDirs,
} from '../../helpers/sandbox.js'
import { until } from '../../helpers/output.js'
import { NEVER_DUE } from '../../helpers/run-main.js'
import { startGate } from '../../helpers/gate.js'
import { createTestIO } from '../../helpers/test-io.js'

const ORIGIN = 'http://127.0.0.1:9'
const tempDir = useTempDirs('chamberctl-export-')

describe('keys', () => {
  it.each([
    ['Berlin Chamber of Commerce', 'berlin-chamber-of-commerce'],
    ['Lübeck Chamber', 'lubeck-chamber'],
    ['  Industrie- & Handelskammer  (IHK) ', 'industrie-handelskammer-ihk'],
    ['Straße Ørsted Łódź Þór Œuvre', 'strasse-orsted-lodz-thor-oeuvre'],
    ['Ｆｕｌｌ ｗｉｄｔｈ ﬁne ①', 'full-width-fine-1'],
    ['Αθήνα Επιμελητήριο', 'αθήνα-επιμελητήριο'],
    ['東京商工会議所', '東京商工会議所'],
    ['नमस्ते दिल्ली', 'नमस्ते-दिल्ली'],
    ['🎉 & —', ''],
  ])('%j → %j', (name, key) => {
    expect(slug(name)).toBe(key)
  })

  it('cuts long names at a word, keeping their first words', () => {
    const key = slug(`${'a'.repeat(40)} ${'b'.repeat(40)}`)
    expect(key).toBe('a'.repeat(40))
    expect(slug('x'.repeat(100))).toHaveLength(64)
  })

  it('are unique, never empty, and the same for the same names in the same order', () => {
    const names = ['Berlin', 'Berlin', 'Berlin 2', '', '!!', 'BERLIN', 'Berlin-2']
    const take = () => {
      const keys = new Keys()
      return names.map((name) => keys.take(name))
    }
    expect(take()).toEqual([
      'berlin',
      'berlin-2',
      'berlin-2-2',
      'chamber',
      'chamber-2',
      'berlin-3',
      'berlin-2-3',
    ])
    expect(take()).toEqual(take())
  })
})

describe('members in name order', () => {
  it('orders each run of alike names by name, then e-mail, across pages, holding one run', () => {
    const m = (name: string, email: string) => ({ name, email })
    const order = new NameOrder<{ name: string; email: string }>()
    // The server's order by name; the runs it left in creation order are put in a fixed one.
    expect(order.next([m('Ada', 'a@x'), m('Émile', 'z@x'), m('emile', 'b@x')])).toEqual([
      m('Ada', 'a@x'),
    ])
    expect(order.next([m('Emile', 'C@x'), m('Emile', 'a@x')])).toEqual([])
    expect(order.next([m('Zoë', 'q@x')])).toEqual([
      m('Emile', 'a@x'),
      m('Emile', 'C@x'),
      m('emile', 'b@x'),
      m('Émile', 'z@x'),
    ])
    expect(order.end()).toEqual([m('Zoë', 'q@x')])
    expect(order.end()).toEqual([])
  })
})

// ---- a server we did not write --------------------------------------------------------------

type Json = Record<string, unknown>
type Server = {
  chambers: Json[]
  members?: Record<string, Json[]>
  // Chambers GET /chambers/{id} answers 404 for.
  missing?: string[]
  version?: 'v1' | 'v2'
}

let agent: MockAgent | undefined
afterEach(async () => {
  await agent?.close()
  agent = undefined
})

// Runs chamberctl against a MockAgent server; `requests` are the paths it was asked for.
async function exportFrom(
  server: Server,
  args: string[],
  tty: { stdoutIsTTY?: boolean; stderrIsTTY?: boolean } = {},
) {
  agent = new MockAgent()
  agent.disableNetConnect()
  const requests: string[] = []
  const page = (records: Json[], query: URLSearchParams) => {
    const size = Number(query.get('per_page') ?? 20)
    const number = Number(query.get('page') ?? 1)
    return {
      data: records.slice((number - 1) * size, number * size),
      meta: { current_page: number, per_page: size, total: records.length },
    }
  }
  agent
    .get(ORIGIN)
    .intercept({ path: () => true, method: 'GET' })
    .reply(({ path: p }) => {
      requests.push(p)
      const url = new URL(p, ORIGIN)
      const parts = url.pathname.split('/').slice(2).map(decodeURIComponent)
      let body: unknown
      if (parts.length === 1) body = page(server.chambers, url.searchParams)
      else if (parts[2] === 'members')
        body = page(server.members?.[parts[1]!] ?? [], url.searchParams)
      else if (server.missing?.includes(parts[1]!)) {
        return { statusCode: 404, data: JSON.stringify({ error: 'Chamber not found' }) }
      } else body = server.chambers.find((c) => String(c.id) === parts[1])
      return {
        statusCode: 200,
        data: JSON.stringify(body),
        responseOptions: { headers: { 'content-type': 'application/json' } },
      }
    })
    .persist()
  const t = createTestIO({
    env: {
      CHAMBERCTL_BASE_URL: `${ORIGIN}/${server.version ?? 'v2'}`,
      CHAMBERCTL_TOKEN: 'test-token',
      CHAMBERCTL_CONFIG_DIR: tempDir(),
    },
    ...tty,
  })
  const code = await main(
    ['node', 'chamberctl', 'export', ...args],
    t.io,
    agent,
    undefined,
    NEVER_DUE,
  )
  return { code, stdout: t.stdout(), stderr: t.stderr(), requests }
}

// What a tolerant reader meets: numeric ids and postal codes, nulls, extra fields, an address
// with a nested object, an hq that names an hq, a type seed does not know, an e-mail seed refuses.
const ODD: Server = {
  chambers: [
    {
      id: 7,
      name: 'Zürich Handelskammer',
      type: 'hq',
      hq_id: null,
      address: {
        district: 'Kreis 1',
        postal_code: 8001,
        geo: { lat: 47.37 },
        floor: null,
        city: 'Zürich',
      },
      status: 'active',
      created_at: '2024-01-01T00:00:00Z',
      member_count: 3,
      tags: ['finance'],
    },
    { id: 'ch_f', name: 'Baden', type: 'subsidiary', hq_id: 7, address: { city: 'Baden' } },
    { id: 'ch_b', name: 'Baden', type: 'subsidiary', hq_id: 7, address: null, member_count: 1 },
    {
      id: 'ch_c',
      name: 'Chur',
      type: 'subsidiary',
      hq_id: 'ch_elsewhere',
      address: { city: 'Chur' },
    },
    { id: 'ch_d', name: '  Basel  ', type: 'hq', hq_id: 'ch_x', address: { city: 'Basel' } },
    { id: 'ch_e', name: 'Broken', type: 'branch', address: {} },
  ],
  members: {
    '7': [
      { id: 3, name: 'ada', email: 'ADA2@zurich.example', phone: null, membership_type: 'basic' },
      {
        id: 1,
        chamber_id: 7,
        name: 'Ada',
        email: 'ada@zurich.example',
        phone: 4930123,
        membership_type: 'gold',
        status: 'active',
        joined_at: '2024-02-02T00:00:00Z',
        nickname: 'A',
        note: null,
      },
      { id: 2, name: 'Bob', email: 'not-an-email', membership_type: 'basic' },
    ],
  },
}

const ODD_YAML = `chambers:
  - key: basel
    name: Basel
    type: hq
    address:
      city: Basel
  - key: zurich-handelskammer
    name: Zürich Handelskammer
    type: hq
    address:
      city: Zürich
      postal_code: "8001"
      district: Kreis 1
    members:
      - name: Ada
        email: ada@zurich.example
        phone: "4930123"
        membership_type: gold
      - name: ada
        email: ADA2@zurich.example
        membership_type: basic
  - key: baden
    name: Baden
    type: subsidiary
    hq: zurich-handelskammer
    address:
      city: Baden
  - key: baden-2
    name: Baden
    type: subsidiary
    hq: zurich-handelskammer
    address: {}
  - key: chur
    name: Chur
    type: subsidiary
    hq_id: ch_elsewhere
    address:
      city: Chur
`

describe('export against a server that sends more than seed can send', () => {
  it('writes only what seed sends, hq by key or hq_id, and counts what it left out', async () => {
    const { code, stdout, stderr, requests } = await exportFrom(ODD, ['--members'])
    expect(code, stderr).toBe(0)
    expect(stdout).toBe(ODD_YAML)
    expect(stderr.split('\n')).toEqual([
      'Exported 5 chambers and 2 members',
      'Left out 6 fields seed cannot send: member_count (2), address.geo (1), hq_id (1), nickname (1), tags (1)',
      'Left out 1 chamber seed cannot create (nor their members): ch_e (type must be one of: hq, subsidiary)',
      'Left out 1 member seed cannot create: 2 of zurich-handelskammer (email must be a valid e-mail address)',
      '',
    ])
    // Members sorted by the server where it can, every page of 100.
    expect(requests).toContain('/v2/chambers/7/members?page=1&per_page=100&sort=name')
    expect(requests).toContain('/v2/chambers?page=1&per_page=100')
  })

  it('writes YAML as the yaml package prints the whole document', async () => {
    const { parse, stringify } = await import('yaml')
    const { stdout } = await exportFrom(ODD, ['--members'])
    expect(stringify(parse(stdout), { lineWidth: 0 })).toBe(stdout)
  })

  it('takes -o yaml as its default: the same fixture', async () => {
    const plain = await exportFrom(ODD, ['--members'])
    const yaml = await exportFrom(ODD, ['--members', '-o', 'yaml'])
    expect(yaml.code).toBe(0)
    expect(yaml.stdout).toBe(plain.stdout)
  })

  it('keeps text of several lines, empty ones too, in YAML and JSON', async () => {
    const { parse, stringify } = await import('yaml')
    const street = 'Hof 2\n\n  Eingang B\n'
    const server = {
      chambers: [{ id: 'ch_1', name: 'Kammer', type: 'hq', address: { street } }],
      members: {
        ch_1: [{ name: 'Ada\n\nLovelace', email: 'ada@x.example', membership_type: 'a\n\nb' }],
      },
    }
    const yaml = await exportFrom(server, ['--members'])
    const fixture = parse(yaml.stdout) as {
      chambers: { address: { street: string }; members: { name: string }[] }[]
    }
    expect(fixture.chambers[0]!.address.street).toBe(street)
    expect(fixture.chambers[0]!.members[0]!.name).toBe('Ada\n\nLovelace')
    expect(yaml.stdout).toBe(stringify(fixture, { lineWidth: 0 }))
    const json = await exportFrom(server, ['--members', '--json'])
    expect(JSON.parse(json.stdout)).toEqual(fixture)
  })

  it('writes a fixture seed accepts as it is', async () => {
    const { stdout } = await exportFrom(ODD, ['--members'])
    const file = path.join(tempDir(), 'fixture.yaml')
    writeFileSync(file, stdout)
    const t = createTestIO({ env: { CHAMBERCTL_CONFIG_DIR: tempDir() } })
    const code = await main(['node', 'chamberctl', 'seed', file, '--dry-run', '--offline'], t.io)
    expect(code, t.stderr()).toBe(0)
    expect(t.stderr()).toBe(`${file} is valid: 5 chambers, 2 members; nothing was sent\n`)
  })

  it('writes the same fixture as JSON with --json, formatted as a whole document would be', async () => {
    const { parse } = await import('yaml')
    const { code, stdout } = await exportFrom(ODD, ['--members', '--json'])
    expect(code).toBe(0)
    const expected: unknown = parse(ODD_YAML)
    expect(JSON.parse(stdout)).toEqual(expected)
    expect(stdout).toBe(`${JSON.stringify(expected, null, 2)}\n`)
  })

  it('says only what is missing with -q, and nothing when all was exported', async () => {
    const quiet = await exportFrom(ODD, ['-q'])
    expect(quiet.stderr).toBe(
      'Left out 1 chamber seed cannot create (nor their members): ch_e (type must be one of: hq, subsidiary)\n',
    )
    const clean = await exportFrom({ chambers: [ODD.chambers[4]!] }, ['-q'])
    expect(clean.stderr).toBe('')
  })

  it('notes its progress on a terminal while the fixture goes to a file, and clears it', async () => {
    const { stdout, stderr } = await exportFrom(ODD, ['--members'], { stderrIsTTY: true })
    expect(stdout).toBe(ODD_YAML)
    const note = (text: string) => `\r\u001b[2K${text}`
    expect(stderr).toContain(note('exporting chamber 1 of 5, 0 members'))
    expect(stderr).toContain(note('exporting chamber 5 of 5, 2 members'))
    expect(stderr).toContain('\r\u001b[2KExported 5 chambers and 2 members\n')
    // Not when the fixture itself goes to the terminal.
    const shown = await exportFrom(ODD, ['--members'], { stderrIsTTY: true, stdoutIsTTY: true })
    expect(shown.stderr).not.toContain('exporting')
    expect(shown.stdout).toBe(ODD_YAML)
  })

  it('names a subsidiary exported without its hq by hq_id', async () => {
    const { code, stdout, requests } = await exportFrom(ODD, ['ch_b'])
    expect(code).toBe(0)
    expect(stdout).toBe(`chambers:
  - key: baden
    name: Baden
    type: subsidiary
    hq_id: "7"
    address: {}
`)
    expect(requests).toEqual(['/v2/chambers/ch_b'])
  })

  it('writes an empty fixture for an empty directory, in YAML and JSON', async () => {
    expect((await exportFrom({ chambers: [] }, [])).stdout).toBe('chambers: []\n')
    expect((await exportFrom({ chambers: [] }, ['--json'])).stdout).toBe('{\n  "chambers": []\n}\n')
  })

  it('on v1, which cannot sort, reads members in the server order and ties by name', async () => {
    const { code, stdout, requests } = await exportFrom({ ...ODD, version: 'v1' }, [
      '7',
      '--members',
    ])
    expect(code).toBe(0)
    expect(requests).toContain('/v1/chambers/7/members?page=1&per_page=100')
    expect(stdout.indexOf('email: ada@zurich.example')).toBeLessThan(
      stdout.indexOf('email: ADA2@zurich.example'),
    )
  })
})

describe('export: chambers named or filtered', () => {
  it('sends --type and --status as the list filters', async () => {
    const { code, requests } = await exportFrom(ODD, ['--type', 'hq', '--status', 'active'])
    expect(code).toBe(0)
    expect(requests).toEqual([
      '/v2/chambers?page=1&per_page=100&filter%5Btype%5D=hq&filter%5Bstatus%5D=active',
    ])
  })

  it.each([
    [['--type', 'branch'], /--type.*branch.*Allowed choices are hq, subsidiary/],
    [['--status', 'gone'], /Allowed choices are active, inactive, pending/],
    [['ch_b', '--type', 'hq'], /^error: give chamber ids or --type\/--status, not both$/m],
    [
      ['-o', 'csv'],
      /^error: export writes a fixture in YAML, or in JSON with --json; not -o csv$/m,
    ],
    [['--jq', '.'], /cannot run --jq over it: pipe export --json into jq/],
    [['--fields', 'name'], /--fields does not apply/],
    [['..'], /chamber id "\.\." cannot be \. or \.\./],
  ])('%j is a usage error before any request', async (args, message) => {
    const { code, stdout, stderr, requests } = await exportFrom(ODD, args)
    expect(code).toBe(2)
    expect(stderr).toMatch(message)
    expect(stdout).toBe('')
    expect(requests).toEqual([])
  })

  it('refuses --type on v1 before any request', async () => {
    const { code, stderr, requests } = await exportFrom({ ...ODD, version: 'v1' }, ['--type', 'hq'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/--type needs API v2/)
    expect(requests).toEqual([])
  })

  it('names every unknown id in one line, exit 3, and writes nothing', async () => {
    const server = { ...ODD, missing: ['ch_404', 'ch_405'] }
    const { code, stdout, stderr } = await exportFrom(server, [
      'ch_405',
      'ch_b',
      'ch_404',
      'ch_405',
    ])
    expect(code).toBe(3)
    expect(stdout).toBe('')
    expect(stderr).toBe(`error: no chamber ch_405, ch_404 on ${ORIGIN}/v2; nothing was exported\n`)
  })
})

describe('export streams members', () => {
  const sandbox = useSandbox()

  it('writes the first members before the server has answered for the last page', async () => {
    // Pages of 100: the big demo chamber's last page is held until members are on stdout.
    const last = Math.ceil(BIG_CHAMBER_MEMBERS / 100)
    const gate = await startGate(
      sandbox().sandbox,
      (method, url) => method === 'GET' && url.includes(`/members?page=${last}&`),
    )
    try {
      const t = createTestIO({
        env: {
          ...credentialsEnv(sandbox(), gate.baseUrl('v2')),
          CHAMBERCTL_CONFIG_DIR: tempDir(),
        },
      })
      const done = main(['node', 'chamberctl', 'export', BIG_CHAMBER, '--members'], t.io)
      await gate.whenHeld(1)
      await until(t.stdout, /members:\n( {6}- name: .*\n( {8}.*\n)+){100}/)
      expect(gate.held()).toHaveLength(1)
      gate.open()
      expect(await done).toBe(0)
      expect(t.stdout().match(/^ {6}- name: /gm)).toHaveLength(BIG_CHAMBER_MEMBERS)
    } finally {
      await gate.close()
    }
  })
})
