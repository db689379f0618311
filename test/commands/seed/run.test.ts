// `seed`: a fixture's chambers and members created in the order their references need, re-runs
// with --skip-existing, the whole file checked before anything is sent, --dry-run, failures that
// stay with their dependants, --concurrency and Ctrl-C. Fixtures are written to temp dirs; what
// was created is read back from the sandbox over HTTP.
import { existsSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { BODY_LIMIT } from '../../../src/sandbox/http.js'
import { closedPortUrl } from '../../helpers/fake-api.js'
import {
  BIG_CHAMBER,
  BIG_CHAMBER_MEMBERS,
  credentialsEnv,
  useTempDirs,
} from '../../helpers/sandbox.js'
import { useDemoSandbox, startSession } from '../../helpers/run-main.js'
import { summaryLine, lines, ndjson, parseCsv, yamlDocuments } from '../../helpers/output.js'
import { isCreate, startGate } from '../../helpers/gate.js'
import type { Gate } from '../../helpers/gate.js'
import { ApiClient } from '../../sandbox/helpers.js'
import type { Rec } from '../../sandbox/helpers.js'

const { sandbox, demo, configDir, run, runBare } = useDemoSandbox()
const tempDir = useTempDirs('chamberctl-seed-')

type Status = 'created' | 'skipped' | 'failed' | 'unknown' | 'not_sent'
type Count = Status | 'created_earlier' | 'invalid'
// A report's summary: every count, zero unless given.
const summary = (counts: Partial<Record<Count, number>>): Record<Count, number> => ({
  created: 0,
  created_earlier: 0,
  skipped: 0,
  invalid: 0,
  failed: 0,
  unknown: 0,
  not_sent: 0,
  ...counts,
})
type RowError = { status: number | null; code: string; message: string; fields: object }
type Outcome = { id: string | null; status: Status; error: RowError | null }
type Report = {
  chambers: Record<string, Outcome>
  members: ({ chamber: string; email: string } & Outcome)[]
  summary: Record<Count, number>
}

let api: ApiClient
beforeAll(() => {
  api = new ApiClient(sandbox().sandbox, 'v2')
})

// Names and e-mails of each test are its own, so that tests sharing the sandbox never match.
let tags = 0
const nextTag = () => `t${++tags}x${Date.now() % 100_000}`

function write(name: string, text: string): string {
  const file = path.join(tempDir(), name)
  writeFileSync(file, text)
  return file
}

// The creates the sandbox answered since the last reset, as "METHOD path status".
function creates(): string[] {
  return sandbox()
    .requests.filter((r) => isCreate(r.method, r.path))
    .map((r) => `${r.method} ${r.path} ${r.status}`)
}

async function chamber(id: string): Promise<Rec> {
  const reply = await api.get(`/chambers/${id}`)
  expect(reply.status).toBe(200)
  return reply.body
}

async function emailsIn(chamberId: string): Promise<string[]> {
  return (await api.listAll(`/chambers/${chamberId}/members`)).map((m) => String(m.email)).sort()
}

function parseReport(stdout: string): Report {
  return JSON.parse(stdout) as Report
}

// Potsdam, a subsidiary, comes before Berlin, its hq: creating in file order would fail.
function potsdamFirst(tag: string): string {
  return `# the contract's example, subsidiary first
chambers:
  - key: potsdam
    name: ${tag} Potsdam Chamber
    type: subsidiary
    hq: berlin            # a key in this file
    address: { city: Potsdam, postal_code: "14467" }
    members:
      - { name: Carl Benz, email: carl@${tag}.example.com, membership_type: standard }
  - key: berlin
    name: ${tag} Berlin Chamber
    type: hq
    address: { street: Fasanenstr. 85, city: Berlin, postal_code: "10623", country: DE }
    members:
      - { name: Ada Lovelace, email: ada@${tag}.example.com, membership_type: standard }
      - name: Alan Turing
        email: alan@${tag}.example.com
        membership_type: premium
        phone: "+49 30 1234"
`
}

// The records of potsdamFirst() in file order: each chamber, then its members.
const COLUMNS = ['kind', 'chamber', 'name', 'email', 'id', 'status', 'error.message']
const FILE_ORDER = [
  ['chamber', 'potsdam', 'Potsdam Chamber', ''],
  ['member', 'potsdam', 'Carl Benz', 'carl'],
  ['chamber', 'berlin', 'Berlin Chamber', ''],
  ['member', 'berlin', 'Ada Lovelace', 'ada'],
  ['member', 'berlin', 'Alan Turing', 'alan'],
]

describe('seed: creates in the order of the references', () => {
  it.each([
    ['a YAML file', 'yaml'],
    ['a JSON file', 'json'],
    ['stdin (-)', 'stdin'],
  ])(
    'creates a subsidiary listed before its hq, and both their members, from %s',
    async (_, source) => {
      const tag = nextTag()
      const yaml = potsdamFirst(tag)
      const json = JSON.stringify(parseYaml(yaml))
      const target =
        source === 'stdin' ? '-' : write(`fixture.${source}`, source === 'json' ? json : yaml)
      sandbox().reset()

      const { code, stdout, stderr } = await run(['seed', target, '--json'], {
        stdin: source === 'stdin' ? yaml : undefined,
      })
      expect(code, stderr).toBe(0)
      expect(stderr).toMatch(summaryLine('5 created'))
      expect(lines(stderr)).toHaveLength(1)
      const report = parseReport(stdout)
      expect(report.summary).toEqual(summary({ created: 5 }))
      const { berlin, potsdam } = report.chambers
      expect(berlin).toEqual({ id: expect.stringMatching(/^ch_/), status: 'created', error: null })
      expect(potsdam).toEqual({ id: expect.stringMatching(/^ch_/), status: 'created', error: null })

      // The subsidiary points at the hq created in this run; the fixture's own fields stay local.
      const hq = await chamber(berlin!.id!)
      const sub = await chamber(potsdam!.id!)
      expect(sub).toMatchObject({
        name: `${tag} Potsdam Chamber`,
        type: 'subsidiary',
        hq_id: hq.id,
        address: { city: 'Potsdam', postal_code: '14467' },
      })
      expect(hq).toMatchObject({ name: `${tag} Berlin Chamber`, type: 'hq', hq_id: null })
      for (const record of [hq, sub]) {
        expect(record).not.toHaveProperty('key')
        expect(record).not.toHaveProperty('hq')
        expect(record).not.toHaveProperty('members')
      }

      expect(await emailsIn(hq.id)).toEqual([`ada@${tag}.example.com`, `alan@${tag}.example.com`])
      expect(await emailsIn(sub.id)).toEqual([`carl@${tag}.example.com`])
      const held = await api.listAll(`/chambers/${hq.id}/members`)
      expect(held.find((m) => m.name === 'Alan Turing')).toMatchObject({
        phone: '+49 30 1234',
        membership_type: 'premium',
      })
      // Members are reported in file order, each with the id the sandbox gave it.
      const idOf = (email: string) => held.find((m) => m.email === email)?.id
      const sent = (key: string, email: string, id = idOf(email)) =>
        ({ chamber: key, email, id, status: 'created', error: null }) as const
      expect(report.members).toEqual([
        sent('potsdam', `carl@${tag}.example.com`, expect.stringMatching(/^mb_/)),
        sent('berlin', `ada@${tag}.example.com`),
        sent('berlin', `alan@${tag}.example.com`),
      ])
      expect(creates()).toHaveLength(5)
      expect(creates().every((line) => line.endsWith(' 201'))).toBe(true)
    },
  )

  it.each([
    ['TSV in a pipe', [], (out: string) => lines(out).map((line) => line.split('\t'))],
    ['CSV with a header', ['-o', 'csv'], (out: string) => parseCsv(out).slice(1)],
    [
      'NDJSON',
      ['-o', 'ndjson'],
      (out: string) => ndjson(out).map((r) => COLUMNS.map((k) => String(r[k] ?? ''))),
    ],
    [
      'one YAML document',
      ['-o', 'yaml'],
      (out: string) => {
        const [results, ...more] = yamlDocuments(out) as Record<string, unknown>[][]
        expect(more).toEqual([])
        return results!.map((r) => COLUMNS.map((k) => String(r[k] ?? '')))
      },
    ],
  ])('prints one result per record, in file order, as %s', async (_, flags, rowsOf) => {
    const tag = nextTag()
    const { code, stdout, stderr } = await run([
      'seed',
      write('f.yaml', potsdamFirst(tag)),
      ...flags,
    ])
    expect(code, stderr).toBe(0)
    expect(lines(stderr)).toEqual([expect.stringMatching(summaryLine('5 created'))])
    if (flags[1] === 'csv') {
      expect(parseCsv(stdout)[0]).toEqual(COLUMNS)
    }
    const rows = rowsOf(stdout)
    expect(
      rows.map(([kind, key, name, email, , status, error]) => [
        kind,
        key,
        name,
        email,
        status,
        error,
      ]),
    ).toEqual(
      FILE_ORDER.map(([kind, key, name, local]) => [
        kind,
        key,
        kind === 'chamber' ? `${tag} ${name}` : name,
        local ? `${local}@${tag}.example.com` : '',
        'created',
        '',
      ]),
    )
    // The ids in the rows are the sandbox's: potsdam holds carl and points at berlin.
    const potsdamId = rows[0]![4]!
    expect(await emailsIn(potsdamId)).toEqual([rows[1]![3]])
    expect((await chamber(potsdamId)).hq_id).toBe(rows[2]![4])
  })
})

describe('seed: progress and summary on stderr', () => {
  it('shows progress on a TTY stderr, cleared before the summary; -q shows neither', async () => {
    const tty = await run(['seed', write('f.yaml', potsdamFirst(nextTag()))], {
      stderrIsTTY: true,
    })
    expect(tty.code, tty.stderr).toBe(0)
    // The bar's frames, each drawn from the start of its line; the last one stays.
    const frames = tty.stderr.split('\u001b[1G').map((frame) => frame.split('\u001b[0K')[0])
    expect(frames).toContainEqual(expect.stringMatching(/^█+ 5\/5 records \| [\d,]+\/s \| ETA 0s$/))
    expect(lines(tty.stderr).at(-1)).toMatch(summaryLine('5 created'))

    const quiet = await run(['seed', write('f.yaml', potsdamFirst(nextTag())), '-q'], {
      stderrIsTTY: true,
    })
    expect(quiet.code).toBe(0)
    expect(quiet.stderr).toBe('')
    expect(lines(quiet.stdout)).toHaveLength(5)
  })
})

describe('seed --skip-existing', () => {
  it('re-runs without creating anything: every record skipped with its id, no POST sent', async () => {
    const fixture = write('f.yaml', potsdamFirst(nextTag()))
    const first = await run(['seed', fixture, '--json'])
    expect(first.code, first.stderr).toBe(0)
    const firstReport = parseReport(first.stdout)
    sandbox().reset()

    const reportFile = path.join(tempDir(), 'report.json')
    const { code, stdout, stderr } = await run([
      'seed',
      fixture,
      '--skip-existing',
      '--json',
      '--report',
      reportFile,
    ])
    expect(code, stderr).toBe(0)
    expect(stderr).toMatch(summaryLine('5 skipped as existing'))
    expect(lines(stderr)).toHaveLength(1)
    const report = parseReport(stdout)
    expect(report.summary).toEqual(summary({ skipped: 5 }))
    const skipped = (outcome: Outcome) => ({ ...outcome, status: 'skipped' })
    expect(report.chambers).toEqual({
      potsdam: skipped(firstReport.chambers.potsdam!),
      berlin: skipped(firstReport.chambers.berlin!),
    })
    expect(report.members).toEqual(firstReport.members.map(skipped))
    expect(JSON.parse(readFileSync(reportFile, 'utf8'))).toEqual(report)
    expect(creates()).toEqual([])
    expect(
      sandbox().requests.every((r) => r.method === 'GET' || r.path.endsWith('/auth/token')),
    ).toBe(true)
  })

  it('matches names trimmed and in any case, e-mails in any case, on any page of members', async () => {
    const big = demo.chambers.find((c) => c.id === BIG_CHAMBER)!
    const members = demo.members.filter((m) => m.chamber_id === BIG_CHAMBER)
    expect(members).toHaveLength(BIG_CHAMBER_MEMBERS)
    const last = members.at(-1)!
    const fixture = {
      chambers: [
        {
          key: 'big',
          name: `  ${big.name.toUpperCase()} `,
          type: 'hq',
          address: {},
          members: [
            { name: last.name, email: last.email.toUpperCase(), membership_type: 'standard' },
            {
              name: 'New Member',
              email: `new@${nextTag()}.example.com`,
              membership_type: 'standard',
            },
          ],
        },
      ],
    }
    sandbox().reset()
    const { code, stdout, stderr } = await run([
      'seed',
      write('f.json', JSON.stringify(fixture)),
      '--skip-existing',
      '--json',
    ])
    expect(code, stderr).toBe(0)
    const report = parseReport(stdout)
    expect(report.chambers.big).toEqual({ id: BIG_CHAMBER, status: 'skipped', error: null })
    expect(report.members.map((m) => [m.status, m.id])).toEqual([
      ['skipped', last.id],
      ['created', expect.stringMatching(/^mb_/)],
    ])
    expect(report.summary).toEqual(summary({ created: 1, skipped: 2 }))
    expect(creates()).toEqual([`POST /v2/chambers/${BIG_CHAMBER}/members 201`])
  })

  it('skips an hq only for an hq, a subsidiary only under the same hq_id, and resolves skipped ids', async () => {
    const tag = nextTag()
    const twin = await api.create('/chambers', { name: `${tag} Twin`, type: 'hq', address: {} })
    const branch = await api.create('/chambers', {
      name: `${tag} Branch`,
      type: 'subsidiary',
      hq_id: 'ch_0001',
      address: {},
    })
    const known = await api.create(`/chambers/${twin.id}/members`, {
      name: 'Known',
      email: `known@${tag}.example.com`,
      membership_type: 'standard',
    })
    const member = (local: string) => ({
      name: local,
      email: `${local}@${tag}.example.com`,
      membership_type: 'standard',
    })
    const fixture = {
      chambers: [
        // A subsidiary of that name exists, but no hq.
        { key: 'branchAsHq', name: `${tag} Branch`, type: 'hq', address: {} },
        { key: 'sameHq', name: `${tag} branch`, type: 'subsidiary', hq_id: 'ch_0001', address: {} },
        {
          key: 'otherHq',
          name: `${tag} Branch`,
          type: 'subsidiary',
          hq_id: 'ch_0002',
          address: {},
        },
        // Skipped, yet its id serves the new subsidiary below; its known member is skipped too.
        {
          key: 'twin',
          name: `${tag} Twin`,
          type: 'hq',
          address: {},
          members: [member('known'), member('fresh')],
        },
        {
          key: 'newSub',
          name: `${tag} Twin Branch`,
          type: 'subsidiary',
          hq: 'twin',
          address: {},
          members: [member('known')],
        },
      ],
    }
    sandbox().reset()
    const { code, stdout, stderr } = await run([
      'seed',
      write('f.json', JSON.stringify(fixture)),
      '--skip-existing',
      '--json',
    ])
    expect(code, stderr).toBe(0)
    const report = parseReport(stdout)
    const statuses = Object.fromEntries(
      Object.entries(report.chambers).map(([key, outcome]) => [key, outcome.status]),
    )
    expect(statuses).toEqual({
      branchAsHq: 'created',
      sameHq: 'skipped',
      otherHq: 'created',
      twin: 'skipped',
      newSub: 'created',
    })
    expect(report.chambers.sameHq!.id).toBe(branch.id)
    expect(report.chambers.twin!.id).toBe(twin.id)
    expect(report.chambers.otherHq!.id).not.toBe(branch.id)
    expect((await chamber(report.chambers.newSub!.id!)).hq_id).toBe(twin.id)
    // An e-mail known in another chamber does not make a member of a new chamber skipped.
    expect(report.members.map((m) => [m.chamber, m.email, m.status])).toEqual([
      ['twin', `known@${tag}.example.com`, 'skipped'],
      ['twin', `fresh@${tag}.example.com`, 'created'],
      ['newSub', `known@${tag}.example.com`, 'created'],
    ])
    expect(report.members[0]!.id).toBe(known.id)
    expect(await emailsIn(twin.id)).toEqual([
      `fresh@${tag}.example.com`,
      `known@${tag}.example.com`,
    ])
    expect(report.summary).toEqual(summary({ created: 5, skipped: 3 }))
    expect(creates()).toHaveLength(5)
  })
})

// chambers[i] → what is wrong there: the paths the fixture below gets wrong, and nothing else.
const PROBLEMS: Record<string, RegExp> = {
  'chambers[0].address.postal_code': /must be a string/,
  'chambers[0].members[1].email':
    /duplicate e-mail in this chamber \(also chambers\[0\]\.members\[0\]\)/,
  'chambers[1].hq': /no chamber with key hamburgg/,
  'chambers[2].members[0].email': /must be a valid e-mail address/,
  'chambers[2].members[1].membership_type': /is required/,
  'chambers[3].key': /duplicate key kiel \(also chambers\[2\]\)/,
  'chambers[4].key': /is required/,
  'chambers[5].hq': /lubeck is not an hq/,
  'chambers[6].hq': /hq or hq_id, not both/,
  'chambers[7].hq_id': /a subsidiary needs hq .* or hq_id/,
  'chambers[8].name': /is required/,
  'chambers[8].type': /must be one of: hq, subsidiary/,
  'chambers[9].members': /must be a list/,
}

const INVALID = `chambers:
  - key: hamburg
    name: Hamburg
    type: hq
    address: { city: Hamburg, postal_code: 20457 }   # a number to YAML
    members:
      - { name: Ada, email: ada@example.com, membership_type: standard }
      - { name: Ada Again, email: ADA@example.com, membership_type: standard }
  - key: lubeck
    name: Lübeck
    type: subsidiary
    hq: hamburgg
    address: { city: Lübeck }
  - key: kiel
    name: Kiel
    type: hq
    address: { city: Kiel }
    members:
      - { name: Ada, email: ada-at-example.com, membership_type: standard }
      - { name: Alan, email: alan@example.com }
  - key: kiel
    name: Kiel Again
    type: hq
    address: {}
  - name: No Key
    type: hq
    address: {}
  - key: altona
    name: Altona
    type: subsidiary
    hq: lubeck
    address: {}
  - key: harburg
    name: Harburg
    type: subsidiary
    hq: hamburg
    hq_id: ch_0002
    address: {}
  - key: wedel
    name: Wedel
    type: subsidiary
    address: {}
  - key: pinneberg
    type: branch
    address: {}
  - key: stade
    name: Stade
    type: hq
    address: {}
    members: { name: Not A List }
`

describe('seed: an invalid fixture is refused whole, before any request', () => {
  it('lists every problem by its path in the file, exits 2 and sends nothing', async () => {
    const file = write('invalid.yaml', INVALID)
    sandbox().reset()
    const { code, stdout, stderr } = await run(['seed', file])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    const [first, ...table] = lines(stderr)
    const count = Object.keys(PROBLEMS).length
    expect(first).toBe(`error: ${file} has ${count} problems; nothing was sent`)
    const listed = table.map((line) => /^\s+(\S+)\s{2,}(.+)$/.exec(line)!.slice(1))
    expect(listed.map(([where]) => where)).toEqual(Object.keys(PROBLEMS))
    for (const [where, message] of listed) expect(message).toMatch(PROBLEMS[where!]!)
    expect(sandbox().requests).toEqual([])
  })

  it('gives the same paths in the JSON error object with --json', async () => {
    sandbox().reset()
    const { code, stdout, stderr } = await run(['seed', write('invalid.yml', INVALID), '--json'])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    const error = (
      JSON.parse(lines(stderr).at(-1)!) as { error: { fields: Record<string, string[]> } }
    ).error
    expect(Object.keys(error.fields)).toEqual(Object.keys(PROBLEMS))
    expect(sandbox().requests).toEqual([])
  })

  it('refuses unknown keys at every level, by path, with a did-you-mean, sending nothing', async () => {
    const fixture = [
      'chambers:',
      '  - key: berlin',
      '    name: Berlin',
      '    type: hq',
      '    bogus: 1',
      '    adress: { city: Berlin }',
      '    address: { city: Berlin, district: Mitte }',
      '    members:',
      '      - { name: Ada, email: ada@example.com, membership: standard }',
      'chamber: []',
      '',
    ].join('\n')
    sandbox().reset()
    const { code, stdout, stderr } = await run(['seed', write('typos.yaml', fixture), '--json'])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    const { fields } = (
      JSON.parse(lines(stderr).at(-1)!) as { error: { fields: Record<string, string[]> } }
    ).error
    expect(fields).toEqual({
      chamber: ['is not a known key (did you mean chambers?)'],
      'chambers[0].adress': ['is not a known key (did you mean address?)'],
      'chambers[0].bogus': [
        'is not a known key (known: key, hq, members, name, type, hq_id, address, status)',
      ],
      'chambers[0].members[0].membership': ['is not a known key (did you mean membership_type?)'],
      'chambers[0].members[0].membership_type': ['is required'],
    })
    expect(sandbox().requests).toEqual([])
  })

  it('reports a cycle on every chamber in it, and a chamber pointing into it, sending nothing', async () => {
    const sub = (key: string, hq: string) => ({
      key,
      name: key,
      type: 'subsidiary',
      hq,
      address: {},
    })
    const fixture = {
      chambers: [
        sub('a', 'b'),
        sub('b', 'c'),
        sub('c', 'a'),
        sub('self', 'self'),
        sub('outside', 'a'),
      ],
    }
    sandbox().reset()
    const { code, stderr } = await run(['seed', '-', '--json'], { stdin: JSON.stringify(fixture) })
    expect(code).toBe(2)
    const { fields } = (
      JSON.parse(lines(stderr).at(-1)!) as { error: { fields: Record<string, string[]> } }
    ).error
    expect(fields).toEqual({
      'chambers[0].hq': ['cycle: a → b → c → a'],
      'chambers[1].hq': ['cycle: b → c → a → b'],
      'chambers[2].hq': ['cycle: c → a → b → c'],
      'chambers[3].hq': ['cycle: self → self'],
      'chambers[4].hq': ['a is not an hq'],
    })
    expect(sandbox().requests).toEqual([])
  })

  it.each([
    ['broken YAML', 'f.yaml', 'chambers:\n  - key: [unclosed\n', /is not valid YAML/],
    ['broken JSON', 'f.json', '{"chambers": [', /is not valid JSON/],
    ['no chambers list', 'f.yaml', 'members: []\n', /is not a seed fixture/],
  ])('refuses %s with exit 2 and no request', async (_, name, text, message) => {
    sandbox().reset()
    const { code, stderr } = await run(['seed', write(name, text)])
    expect(code).toBe(2)
    expect(stderr).toMatch(message)
    expect(sandbox().requests).toEqual([])
  })

  it.each(['0', '65', 'two'])('refuses --concurrency %s with exit 2 and no request', async (n) => {
    sandbox().reset()
    const file = write('f.yaml', potsdamFirst(nextTag()))
    const { code, stderr } = await run(['seed', file, '--concurrency', n])
    expect(code).toBe(2)
    expect(stderr).toMatch(/concurrency/)
    expect(sandbox().requests).toEqual([])
  })

  it('refuses a missing file with exit 2 and no request', async () => {
    sandbox().reset()
    const { code, stderr } = await run(['seed', path.join(tempDir(), 'missing.yaml')])
    expect(code).toBe(2)
    expect(stderr).toMatch(/^error: cannot read .*missing\.yaml: no such file/)
    expect(sandbox().requests).toEqual([])
  })

  it('is refused on a v1 base URL, naming both versions, before any request', async () => {
    sandbox().reset()
    const { code, stderr } = await run(['seed', write('f.yaml', potsdamFirst(nextTag()))], {
      env: { CHAMBERCTL_BASE_URL: sandbox().v1 },
    })
    expect(code).toBe(2)
    expect(stderr).toMatch(/v1/)
    expect(stderr).toMatch(/v2/)
    expect(sandbox().requests).toEqual([])
  })
})

describe('seed --dry-run', () => {
  type Step = {
    step: number
    action: string
    kind: string
    chamber: string
    name: string
    id: string | null
  }

  it('prints the plan in creation order, hq first, and sends nothing', async () => {
    const tag = nextTag()
    sandbox().reset()
    const { code, stdout, stderr } = await run([
      'seed',
      write('f.yaml', potsdamFirst(tag)),
      '--dry-run',
      '--json',
    ])
    expect(code, stderr).toBe(0)
    expect(JSON.parse(stdout)).toEqual<Step[]>([
      {
        step: 1,
        action: 'create',
        kind: 'chamber',
        chamber: 'berlin',
        name: `${tag} Berlin Chamber`,
        id: null,
      },
      {
        step: 2,
        action: 'create',
        kind: 'member',
        chamber: 'berlin',
        name: `ada@${tag}.example.com`,
        id: null,
      },
      {
        step: 3,
        action: 'create',
        kind: 'member',
        chamber: 'berlin',
        name: `alan@${tag}.example.com`,
        id: null,
      },
      {
        step: 4,
        action: 'create',
        kind: 'chamber',
        chamber: 'potsdam',
        name: `${tag} Potsdam Chamber`,
        id: null,
      },
      {
        step: 5,
        action: 'create',
        kind: 'member',
        chamber: 'potsdam',
        name: `carl@${tag}.example.com`,
        id: null,
      },
    ])
    expect(stderr).toMatch(/Dry run: 5 to create, 0 to skip; nothing was sent/)
    expect(creates()).toEqual([])
  })

  it('with --skip-existing marks what exists as skip, with its id, as TSV rows', async () => {
    const tag = nextTag()
    const first = await run(['seed', write('f.yaml', potsdamFirst(tag)), '--json'])
    expect(first.code, first.stderr).toBe(0)
    const { chambers, members } = parseReport(first.stdout)
    // One more member under berlin, one more subsidiary: those two are still to create.
    const grown = `${potsdamFirst(tag)}      - { name: Grace Hopper, email: grace@${tag}.example.com, membership_type: standard }
  - key: spandau
    name: ${tag} Spandau Chamber
    type: subsidiary
    hq: berlin
    address: {}
`
    sandbox().reset()
    const { code, stdout, stderr } = await run([
      'seed',
      write('g.yaml', grown),
      '--dry-run',
      '--skip-existing',
    ])
    expect(code, stderr).toBe(0)
    expect(lines(stdout).map((line) => line.split('\t'))).toEqual([
      [
        '1',
        `skip (exists as ${chambers.berlin!.id})`,
        'chamber',
        'berlin',
        `${tag} Berlin Chamber`,
        chambers.berlin!.id,
      ],
      [
        '2',
        `skip (exists as ${members[1]!.id})`,
        'member',
        'berlin',
        `ada@${tag}.example.com`,
        members[1]!.id,
      ],
      [
        '3',
        `skip (exists as ${members[2]!.id})`,
        'member',
        'berlin',
        `alan@${tag}.example.com`,
        members[2]!.id,
      ],
      ['4', 'create', 'member', 'berlin', `grace@${tag}.example.com`, ''],
      [
        '5',
        `skip (exists as ${chambers.potsdam!.id})`,
        'chamber',
        'potsdam',
        `${tag} Potsdam Chamber`,
        chambers.potsdam!.id,
      ],
      [
        '6',
        `skip (exists as ${members[0]!.id})`,
        'member',
        'potsdam',
        `carl@${tag}.example.com`,
        members[0]!.id,
      ],
      ['7', 'create', 'chamber', 'spandau', `${tag} Spandau Chamber`, ''],
    ])
    expect(stderr).toMatch(/Dry run: 2 to create, 5 to skip; nothing was sent/)
    expect(creates()).toEqual([])
  })
})

describe('seed --dry-run --offline', () => {
  it('checks the file without a server or credentials, and sends nothing', async () => {
    const tag = nextTag()
    const file = write('f.yaml', potsdamFirst(tag))
    const offline = ['seed', file, '--dry-run', '--offline']
    const valid = await runBare(offline, { env: { CHAMBERCTL_BASE_URL: await closedPortUrl() } })
    expect(valid).toEqual({
      code: 0,
      stdout: '',
      stderr: `${file} is valid: 2 chambers, 3 members; nothing was sent\n`,
    })
    const broken = write('b.yaml', potsdamFirst(tag).replace(`ada@${tag}.example.com`, 'nope'))
    const invalid = await runBare(['seed', broken, '--dry-run', '--offline'])
    expect(invalid.code).toBe(2)
    expect(invalid.stderr).toMatch(/chambers\[\d\]\.members\[0\]\.email/)
  })

  it('is a usage error without --dry-run or with --skip-existing', async () => {
    const file = write('f.yaml', potsdamFirst(nextTag()))
    const alone = await runBare(['seed', file, '--offline'])
    expect(alone.code).toBe(2)
    expect(alone.stderr).toMatch(/--offline goes with --dry-run/)
    const skip = await runBare(['seed', file, '--dry-run', '--offline', '--skip-existing'])
    expect(skip.code).toBe(2)
    expect(skip.stderr).toMatch(/--offline cannot tell what exists/)
  })
})

describe('seed: a failed chamber fails its dependants and nothing else', () => {
  it('fails the subsidiary and members of an hq the server rejects; creates the rest (exit 1)', async () => {
    const tag = nextTag()
    // Address keys are free-form, so a huge one passes the local check; the sandbox answers 413.
    const fixture = `chambers:
  - key: broken
    name: ${tag} Broken
    type: hq
    address: { notes: ${'x'.repeat(BODY_LIMIT)} }
    members:
      - { name: Ann, email: ann@${tag}.example.com, membership_type: standard }
  - key: child
    name: ${tag} Child
    type: subsidiary
    hq: broken
    address: {}
    members:
      - { name: Bob, email: bob@${tag}.example.com, membership_type: standard }
  - key: fine
    name: ${tag} Fine
    type: hq
    address: {}
    members:
      - { name: Cid, email: cid@${tag}.example.com, membership_type: standard }
`
    const reportFile = path.join(tempDir(), 'report.json')
    sandbox().reset()
    const { code, stdout, stderr } = await run([
      'seed',
      write('f.yaml', fixture),
      '--report',
      reportFile,
    ])
    expect(code).toBe(1)
    // The server refused the broken hq for good (413): nothing left could succeed when sent
    // again, so no --resume is advised.
    expect(lines(stderr)).toEqual([expect.stringMatching(summaryLine('2 created, 4 failed'))])
    // Without --json: result rows on stdout, the JSON report in the file.
    const rows = lines(stdout).map((line) => line.split('\t'))
    expect(rows.map(([kind, key, , , , status, error]) => [kind, key, status, error])).toEqual([
      ['chamber', 'broken', 'failed', expect.stringMatching(/413/)],
      ['member', 'broken', 'failed', 'not sent: the chamber failed'],
      ['chamber', 'child', 'failed', 'not sent: the hq failed'],
      ['member', 'child', 'failed', 'not sent: the chamber failed'],
      ['chamber', 'fine', 'created', ''],
      ['member', 'fine', 'created', ''],
    ])
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report
    expect(report.summary).toEqual(summary({ created: 2, failed: 4 }))
    const dependency = (what: string) => ({
      status: null,
      code: 'dependency',
      message: `not sent: the ${what} failed`,
      fields: {},
    })
    expect(report.chambers.child).toEqual({ id: null, status: 'failed', error: dependency('hq') })
    expect(report.chambers.broken).toMatchObject({
      id: null,
      status: 'failed',
      error: { status: 413, code: expect.any(String), message: expect.any(String), fields: {} },
    })
    expect(report.members.map((m) => [m.chamber, m.id, m.status, m.error])).toEqual([
      ['broken', null, 'failed', dependency('chamber')],
      ['child', null, 'failed', dependency('chamber')],
      ['fine', expect.stringMatching(/^mb_/), 'created', null],
    ])
    // The broken hq reached the server once; nothing of its dependants was sent.
    const fine = report.chambers.fine!.id!
    expect(creates().sort()).toEqual(
      [
        'POST /v2/chambers 201',
        'POST /v2/chambers 413',
        `POST /v2/chambers/${fine}/members 201`,
      ].sort(),
    )
    expect(await emailsIn(fine)).toEqual([`cid@${tag}.example.com`])
  })
})

describe('seed --report', () => {
  // Checked first, a report can still fail to be written at the end (a full disk).
  it.runIf(existsSync('/dev/full'))(
    'still prints every result when the report file cannot be written (exit 1)',
    async () => {
      const tag = nextTag()
      const unwritable = '/dev/full'
      const { code, stdout, stderr } = await run([
        'seed',
        write('f.yaml', potsdamFirst(tag)),
        '--json',
        '--report',
        unwritable,
      ])
      expect(code).toBe(1)
      const report = parseReport(stdout)
      expect(report.summary).toEqual(summary({ created: 5 }))
      expect(await emailsIn(report.chambers.potsdam!.id!)).toEqual([`carl@${tag}.example.com`])
      expect(lines(stderr)).toEqual([
        expect.stringMatching(summaryLine('5 created')),
        expect.stringMatching(/^error: cannot write the report to \/dev\/full: /),
        expect.stringMatching(/^\{"error":\{"status":null,"code":"failure"/),
      ])
    },
  )

  const refused = async (fixture: string, report: string, why: string) => {
    const text = readFileSync(fixture, 'utf8')
    sandbox().reset()
    const { code, stdout, stderr } = await run(['seed', fixture, '--report', report])
    expect(stderr).toBe(`error: --report ${report}: ${why}; nothing was sent\n`)
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(sandbox().requests).toEqual([])
    expect(readFileSync(fixture, 'utf8')).toBe(text)
  }

  it('is never the fixture, by any name: the same path, a symbolic link, a hard link', async () => {
    const fixture = write('fx.yaml', potsdamFirst(nextTag()))
    const dir = path.dirname(fixture)
    const soft = path.join(dir, 'soft.json')
    const hard = path.join(dir, 'hard.json')
    symlinkSync(fixture, soft)
    linkSync(fixture, hard)
    for (const report of [fixture, path.join(dir, '.', 'fx.yaml'), soft, hard]) {
      await refused(fixture, report, `is the fixture being seeded (${fixture}); name another file`)
    }
  })

  it('is a file that can be written: not a directory, not in one that does not exist', async () => {
    const fixture = write('fx.yaml', potsdamFirst(nextTag()))
    const dir = path.dirname(fixture)
    await refused(fixture, dir, 'is a directory; name a file to write the report to')
    const missing = path.join(dir, 'missing')
    await refused(
      fixture,
      path.join(missing, 'report.json'),
      `the directory ${missing} does not exist`,
    )
  })

  it.skipIf(process.getuid?.() === 0)('is in a directory the user may write to', async () => {
    const fixture = write('fx.yaml', potsdamFirst(nextTag()))
    const locked = path.join(path.dirname(fixture), 'locked')
    mkdirSync(locked, { mode: 0o500 })
    await refused(
      fixture,
      path.join(locked, 'report.json'),
      'cannot be written: permission denied (EACCES)',
    )
  })
})

// Fixtures of `count` hqs with `members` members each, named after `tag`.
function hqs(tag: string, count: number, members: number): string {
  const chambers = Array.from({ length: count }, (_, i) => ({
    key: `hq${i + 1}`,
    name: `${tag} Hq ${i + 1}`,
    type: 'hq',
    address: {},
    members: Array.from({ length: members }, (_, j) => ({
      name: `Member ${j + 1}`,
      email: `m${j + 1}.hq${i + 1}@${tag}.example.com`,
      membership_type: 'standard',
    })),
  }))
  return JSON.stringify({ chambers })
}

async function withGate<T>(test: (gate: Gate, env: NodeJS.ProcessEnv) => Promise<T>): Promise<T> {
  const gate = await startGate(sandbox().sandbox)
  try {
    return await test(gate, {
      CHAMBERCTL_CONFIG_DIR: configDir(),
      ...credentialsEnv(sandbox(), gate.baseUrl('v2')),
    })
  } finally {
    await gate.close()
  }
}

describe('seed --concurrency', () => {
  it.each([
    ['--concurrency 1', ['--concurrency', '1'], 1],
    ['--concurrency 3', ['--concurrency', '3'], 3],
    ['the default of 8', [], 8],
  ])('keeps as many creates in flight, and connections, as %s allows', async (_, flags, limit) => {
    await withGate(async (gate, env) => {
      const total = 10 * 2
      const file = write('f.json', hqs(nextTag(), 10, 1))
      const seeding = startSession(['seed', file, ...flags, '--json'], { env })
      // Each create is let through only once the limit is reached again (or all that is left
      // is in flight): a client that sent more would be seen holding more at once.
      for (let released = 0; released < total; released++) {
        await gate.whenHeld(Math.min(limit, total - released))
        gate.release()
      }
      const { code, stdout, stderr } = await seeding.done
      expect(code, stderr).toBe(0)
      expect(parseReport(stdout).summary).toEqual(summary({ created: total }))
      expect(gate.maxOpen()).toBe(limit)
      expect(gate.connections()).toBe(limit)
    })
  })
})

describe('seed: Ctrl-C', () => {
  it('finishes the creates in flight, sends no more, reports every record and exits 130', async () => {
    await withGate(async (gate, env) => {
      const tag = nextTag()
      const reportFile = path.join(tempDir(), 'report.json')
      const file = write('f.json', hqs(tag, 6, 2))
      sandbox().reset()
      const seeding = startSession(
        ['seed', file, '--concurrency', '2', '--json', '--report', reportFile],
        { env },
      )
      await gate.whenHeld(2)
      gate.release(2)
      await gate.whenHeld(2)
      seeding.interrupt()
      gate.open()
      const { code, stdout, stderr } = await seeding.done
      expect(code).toBe(130)
      expect(stderr).toContain('Interrupted')
      expect(lines(stderr).at(-2)).toMatch(summaryLine('4 created, 14 not sent', ' (interrupted)'))
      expect(lines(stderr).at(-1)).toBe(
        'To continue, run the same command with --resume: it sends only the 14 records not yet created',
      )

      const report = parseReport(stdout)
      expect(JSON.parse(readFileSync(reportFile, 'utf8'))).toEqual(report)
      expect(Object.keys(report.chambers).sort()).toEqual([
        'hq1',
        'hq2',
        'hq3',
        'hq4',
        'hq5',
        'hq6',
      ])
      expect(report.members.map((m) => m.email)).toEqual(
        [1, 2, 3, 4, 5, 6].flatMap((i) => [1, 2].map((j) => `m${j}.hq${i}@${tag}.example.com`)),
      )
      expect(report.summary).toEqual(summary({ created: 4, not_sent: 14 }))
      const outcomes = [...Object.values(report.chambers), ...report.members]
      for (const outcome of outcomes.filter((o) => o.status !== 'created')) {
        expect(outcome).toMatchObject({ id: null, status: 'not_sent', error: null })
      }

      // What is reported created is exactly what the sandbox holds, and nothing else was sent.
      expect(creates()).toHaveLength(4)
      const ours = (await api.listAll('/chambers')).filter((c) => String(c.name).startsWith(tag))
      const createdChambers = Object.values(report.chambers).filter((o) => o.status === 'created')
      expect(ours.map((c) => c.id).sort()).toEqual(createdChambers.map((o) => o.id).sort())
      const heldMembers = (
        await Promise.all(ours.map((c) => api.listAll(`/chambers/${c.id}/members`)))
      ).flat()
      const createdMembers = report.members.filter((m) => m.status === 'created')
      expect(heldMembers.map((m) => m.id).sort()).toEqual(createdMembers.map((m) => m.id).sort())
    })
  })
})
