// `diff`: a fixture against the sandbox it was seeded into (equal, exit 0), an export against its
// own directory (equal), and each kind of difference planted alone and together, in each output
// (a pipe's lines, a terminal's colours, --json); usage errors before anything is sent.
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml'
import path from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { useSandbox, useTempDirs } from '../../helpers/sandbox.js'
import { useCommands } from '../../helpers/run-main.js'
import { ANSI, lines } from '../../helpers/output.js'
import { writeFixture } from './helpers.js'
import type { Chamber, Member } from './helpers.js'

const sandbox = useSandbox({ empty: true })
const { run } = useCommands(sandbox)
const tempDir = useTempDirs('chamberctl-diff-')

beforeEach(async () => {
  const answer = await fetch(`${sandbox().sandbox.url}/_sandbox/reset`, { method: 'POST' })
  expect(answer.ok).toBe(true)
  sandbox().reset()
})

const member = (name: string, phone?: string): Member => ({
  name,
  email: `${name.toLowerCase()}@example.com`,
  ...(phone ? { phone } : {}),
  membership_type: 'standard',
})

// Two HQs, a subsidiary of the first, a third HQ; members in two of them.
function base(): { chambers: Chamber[] } {
  return {
    chambers: [
      {
        key: 'berlin',
        name: 'Berlin Chamber',
        type: 'hq',
        address: { street: 'Fasanenstr. 85', city: 'Berlin', country: 'DE' },
        members: [member('Ada', '+49 1'), member('Alan'), member('Carl')],
      },
      { key: 'munich', name: 'Munich Chamber', type: 'hq', address: { city: 'Munich' } },
      {
        key: 'potsdam',
        name: 'Potsdam Chamber',
        type: 'subsidiary',
        hq: 'berlin',
        address: { city: 'Potsdam' },
        members: [member('Pia')],
      },
      { key: 'hamburg', name: 'Hamburg Chamber', type: 'hq', address: { city: 'Hamburg' } },
    ],
  }
}

const write = (name: string, fixture: unknown) => writeFixture(tempDir(), name, fixture)

async function seeded(): Promise<Record<string, string>> {
  const seed = await run(['seed', write('base.json', base()), '--json'])
  expect(seed.code, seed.stderr).toBe(0)
  const report = JSON.parse(seed.stdout) as { chambers: Record<string, { id: string }> }
  return Object.fromEntries(Object.entries(report.chambers).map(([key, { id }]) => [key, id]))
}

// Every kind of difference, planted in a copy of the seeded fixture.
function planted(): { chambers: Chamber[] } {
  const fixture = base()
  const [berlin, munich, potsdam] = fixture.chambers as [Chamber, Chamber, Chamber, Chamber]
  berlin.name = 'BERLIN Chamber' // a field (matched by name in any case)
  berlin.status = 'inactive' // a field the server makes, stated
  berlin.address.city = 'Bonn' // an address field
  berlin.members = [
    { ...member('Ada', '+49 2'), email: 'ADA@Example.com' }, // same member, phone changed
    member('Carl'),
    member('Grace'), // only in the fixture; Alan only on the server
  ]
  potsdam.hq = 'munich' // hq changed
  fixture.chambers = [berlin, munich, potsdam, { ...munich, key: 'kiel', name: 'Kiel Chamber' }]
  fixture.chambers[3]!.members = [member('Kim')]
  return fixture // hamburg only on the server
}

describe('diff: equal', () => {
  it('exits 0 for the fixture a directory was seeded from, members and all', async () => {
    await seeded()
    const file = write('same.json', base())
    for (const args of [[], ['--members']]) {
      const { code, stdout, stderr } = await run(['diff', file, ...args])
      expect(code, stderr).toBe(0)
      expect(stdout).toBe('')
      expect(stderr).toMatch(
        /^No differences: chambers 0 only in the fixture, 0 only on the server, 0 changed, 4 the same/,
      )
    }
    const json = await run(['diff', file, '--members', '--json'])
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout)).toMatchObject({
      equal: true,
      chambers: { only_in_fixture: [], only_on_server: [], changed: [] },
      members: { only_in_fixture: [], only_on_server: [], changed: [] },
      summary: { members: { same: 4 } },
    })
    const stdin = await run(['diff', '-', '--members'], { stdin: JSON.stringify(base()) })
    expect(stdin.code, stdin.stderr).toBe(0)
  })

  it("exits 0 for the directory's own export, YAML or JSON", async () => {
    await seeded()
    for (const format of [[], ['--json']]) {
      const exported = await run(['export', '--members', ...format])
      expect(exported.code, exported.stderr).toBe(0)
      const file = write(format.length ? 'export.json' : 'export.yaml', exported.stdout)
      const { code, stdout, stderr } = await run(['diff', file, '--members'])
      expect({ code, stdout }, stderr).toEqual({ code: 0, stdout: '' })
    }
  })
})

describe('diff: each kind of difference', () => {
  it('reports exactly the planted ones, one sorted line each in a pipe, exit 1', async () => {
    const ids = await seeded()
    const { code, stdout, stderr } = await run(['diff', write('p.json', planted()), '--members'])
    expect(code, stderr).toBe(1)
    const hamburg = ids.hamburg!
    expect(lines(stdout).map((line) => line.split('\t'))).toEqual([
      ['~', 'chamber', 'berlin', '', 'address.city', 'Bonn', 'Berlin'],
      ['~', 'chamber', 'berlin', '', 'name', 'BERLIN Chamber', 'Berlin Chamber'],
      ['~', 'chamber', 'berlin', '', 'status', 'inactive', 'active'],
      ['~', 'member', 'berlin', 'ADA@Example.com', 'phone', '+49 2', '+49 1'],
      ['-', 'member', 'berlin', 'alan@example.com', '', '', 'Alan'],
      ['+', 'member', 'berlin', 'grace@example.com', '', 'Grace', ''],
      ['~', 'chamber', 'potsdam', '', 'hq_id', ids.munich, ids.berlin],
      ['+', 'chamber', 'kiel', '', '', 'Kiel Chamber', ''],
      ['+', 'member', 'kiel', 'kim@example.com', '', 'Kim', ''],
      ['-', 'chamber', hamburg, '', '', '', 'Hamburg Chamber'],
    ])
    expect(stderr).toBe(
      'Differences: chambers 1 only in the fixture, 1 only on the server, 2 changed, 1 the same; ' +
        'members 2 only in the fixture, 1 only on the server, 1 changed, 2 the same\n',
    )
  })

  it('without --members compares chambers only', async () => {
    await seeded()
    const { code, stdout } = await run(['diff', write('p.json', planted())])
    expect(code).toBe(1)
    expect(lines(stdout).map((line) => line.split('\t')[1])).not.toContain('member')
    expect(lines(stdout)).toHaveLength(6)
  })

  it('says the same in one JSON document', async () => {
    const ids = await seeded()
    const file = write('p.json', planted())
    const { code, stdout } = await run(['diff', file, '--members', '--json'])
    expect(code).toBe(1)
    expect(JSON.parse(stdout)).toEqual({
      equal: false,
      fixture: expect.stringMatching(/p\.json$/),
      chambers: {
        only_in_fixture: [{ key: 'kiel', name: 'Kiel Chamber' }],
        only_on_server: [{ id: ids.hamburg, name: 'Hamburg Chamber' }],
        changed: [
          {
            key: 'berlin',
            id: ids.berlin,
            fields: [
              { field: 'address.city', fixture: 'Bonn', server: 'Berlin' },
              { field: 'name', fixture: 'BERLIN Chamber', server: 'Berlin Chamber' },
              { field: 'status', fixture: 'inactive', server: 'active' },
            ],
          },
          {
            key: 'potsdam',
            id: ids.potsdam,
            fields: [{ field: 'hq_id', fixture: ids.munich, server: ids.berlin, hq: 'munich' }],
          },
        ],
      },
      members: {
        only_in_fixture: [
          {
            chamber: 'berlin',
            chamber_id: ids.berlin,
            email: 'grace@example.com',
            id: null,
            name: 'Grace',
          },
          { chamber: 'kiel', chamber_id: null, email: 'kim@example.com', id: null, name: 'Kim' },
        ],
        only_on_server: [
          {
            chamber: 'berlin',
            chamber_id: ids.berlin,
            email: 'alan@example.com',
            id: expect.any(String),
            name: 'Alan',
          },
        ],
        changed: [
          {
            chamber: 'berlin',
            chamber_id: ids.berlin,
            email: 'ADA@Example.com',
            id: expect.any(String),
            fields: [{ field: 'phone', fixture: '+49 2', server: '+49 1' }],
          },
        ],
      },
      summary: {
        chambers: { only_in_fixture: 1, only_on_server: 1, changed: 2, same: 1 },
        members: { only_in_fixture: 2, only_on_server: 1, changed: 1, same: 2 },
      },
    })
    // -o yaml: the same document.
    const yaml = await run(['diff', file, '--members', '-o', 'yaml'])
    expect(yaml.code).toBe(1)
    expect(parseYaml(yaml.stdout)).toEqual(JSON.parse(stdout))
  })

  it("shows its progress on a terminal's stderr while it writes to a file, never to a pipe", async () => {
    await seeded()
    const file = write('p.json', planted())
    const toFile = await run(['diff', file, '--members'], { stderrIsTTY: true })
    expect(toFile.stderr).toContain('comparing chamber 4, 5 members')
    const toPipe = await run(['diff', file, '--members'], { stderrIsTTY: true, stdoutIsPipe: true })
    expect(toPipe.stderr).not.toContain('comparing')
    expect(toPipe.stdout).toBe(toFile.stdout)
  })

  it('hands the document to --jq', async () => {
    const ids = await seeded()
    const file = write('p.json', planted())
    const { code, stdout } = await run(['diff', file, '--jq', '.chambers.only_on_server[].id'])
    expect({ code, stdout }).toEqual({ code: 1, stdout: `${ids.hamburg}\n` })
  })

  it('on a terminal: a legend, grouped and coloured lines whose signs carry the meaning', async () => {
    const ids = await seeded()
    const file = write('p.json', planted())
    const coloured = await run(['diff', file, '--members'], {
      stdoutIsTTY: true,
      env: { FORCE_COLOR: '1' },
    })
    expect(coloured.code).toBe(1)
    const shown = lines(coloured.stdout)
    expect(shown[0]).toMatch(/\+ only in the fixture .*- only on the server .*~ fixture → server/)
    expect(coloured.stdout).toContain(`\u001b[32m+ chamber kiel "Kiel Chamber"\u001b[39m`)
    expect(coloured.stdout).toContain(`\u001b[31m- chamber ${ids.hamburg} "Hamburg Chamber"`)
    expect(coloured.stdout).toContain(`\u001b[33m~ address.city: "Bonn" → "Berlin"`)
    const plain = await run(['diff', file, '--members'], {
      stdoutIsTTY: true,
      env: { NO_COLOR: '1' },
    })
    expect(plain.stdout).not.toMatch(ANSI)
    expect(lines(plain.stdout).slice(1)).toEqual([
      `~ chamber berlin (${ids.berlin}) "BERLIN Chamber"`,
      '    ~ address.city: "Bonn" → "Berlin"',
      '    ~ name: "BERLIN Chamber" → "Berlin Chamber"',
      '    ~ status: "inactive" → "active"',
      expect.stringMatching(/^ {4}~ member ADA@Example\.com \(\S+\)$/),
      '        ~ phone: "+49 2" → "+49 1"',
      expect.stringMatching(/^ {4}- member alan@example\.com \(\S+\) "Alan"$/),
      '    + member grace@example.com "Grace"',
      `~ chamber potsdam (${ids.potsdam}) "Potsdam Chamber"`,
      `    ~ hq_id: "${ids.munich}" (hq munich) → "${ids.berlin}"`,
      '+ chamber kiel "Kiel Chamber"',
      '    + member kim@example.com "Kim"',
      `- chamber ${ids.hamburg} "Hamburg Chamber"`,
    ])
    const accessible = await run(['diff', file, '--accessible'], { stdoutIsTTY: true })
    expect(accessible.stdout).toContain('only in fixture: chamber kiel "Kiel Chamber"')
    expect(accessible.stdout).toContain(`only on server: chamber ${ids.hamburg}`)
  })

  it('escapes what came from the server or the file before a terminal', async () => {
    await seeded()
    const fixture = base()
    fixture.chambers[0]!.address.city = 'Bonn\u001b[2J'
    const { stdout } = await run(['diff', write('e.json', fixture)], { stdoutIsTTY: true })
    expect(stdout).not.toContain('\u001b[2J')
    expect(stdout).toContain('"Bonn\\u001b[2J" → "Berlin"')
  })

  it('takes a subsidiary listed before its hq', async () => {
    const ids = await seeded()
    const fixture = planted()
    fixture.chambers.reverse()
    const { code, stdout } = await run(['diff', write('r.json', fixture)])
    expect(code).toBe(1)
    expect(lines(stdout)).toContain(`~\tchamber\tpotsdam\t\thq_id\t${ids.munich}\t${ids.berlin}`)
  })
})

describe('diff: usage', () => {
  it('refuses a fixture whose fault is in its last chamber before printing any difference', async () => {
    await seeded()
    const fixture = planted()
    // The last chamber takes the first one's key: a fault found only at the end of the file.
    fixture.chambers.at(-1)!.key = fixture.chambers[0]!.key
    for (const name of ['late.json', 'late.yaml']) {
      const file = write(name, name.endsWith('.yaml') ? stringifyYaml(fixture) : fixture)
      const { code, stdout, stderr } = await run(['diff', file, '--members'])
      expect(code).toBe(2)
      expect(stdout).toBe('')
      expect(stderr).toMatch(/duplicate key/)
    }
  })

  it('refuses a missing file, an invalid fixture (as seed lists it) and other formats', async () => {
    const missing = await run(['diff', path.join(tempDir(), 'nope.yaml')])
    expect(missing.code).toBe(2)
    const broken = base()
    broken.chambers[0]!.members![0]!.email = 'not an address'
    const file = write('b.json', broken)
    const invalid = await run(['diff', file])
    const seed = await run(['seed', file])
    expect(invalid.code).toBe(2)
    expect(invalid.stderr).toBe(seed.stderr)
    expect(invalid.stderr).toMatch(/chambers\[0\]\.members\[0\]\.email/)
    for (const flags of [
      ['-o', 'csv'],
      ['--fields', 'name'],
    ]) {
      const refused = await run(['diff', write('ok.json', base()), ...flags])
      expect(refused.code).toBe(2)
    }
    expect(sandbox().requests.filter((r) => r.path.includes('/chambers'))).toEqual([])
  })

  it('works on a /v1 base URL: it only reads', async () => {
    await seeded()
    const { code, stderr } = await run(['diff', write('v1.json', base()), '--members'], {
      env: { CHAMBERCTL_BASE_URL: sandbox().v1 },
    })
    expect(code, stderr).toBe(0)
  })
})

describe('seed --dry-run: the plan from the same comparison', () => {
  type Step = { action: string; kind: string; chamber: string; name: string; id: string | null }
  const plan = async (file: string, ...flags: string[]) => {
    const { code, stdout, stderr } = await run(['seed', file, '--dry-run', '--json', ...flags])
    expect(code, stderr).toBe(0)
    return (JSON.parse(stdout) as Step[]).map((s) => [s.action, s.kind, s.chamber, s.name, s.id])
  }

  it('skips what diff matched, creates what it did not, and says what a plain seed would do', async () => {
    const ids = await seeded()
    const fixture = base()
    fixture.chambers[2]!.hq = 'munich'
    fixture.chambers.push({ key: 'kiel', name: 'Kiel', type: 'hq', address: {} })
    fixture.chambers[0]!.members!.push(member('Grace'))
    const file = write('plan.json', fixture)
    const ada = (await plan(file, '--skip-existing'))[1]![4] as string
    expect(await plan(file, '--skip-existing')).toEqual([
      [`skip (exists as ${ids.berlin})`, 'chamber', 'berlin', 'Berlin Chamber', ids.berlin],
      [`skip (exists as ${ada})`, 'member', 'berlin', 'ada@example.com', ada],
      [expect.stringMatching(/^skip/), 'member', 'berlin', 'alan@example.com', expect.any(String)],
      [expect.stringMatching(/^skip/), 'member', 'berlin', 'carl@example.com', expect.any(String)],
      ['create', 'member', 'berlin', 'grace@example.com', null],
      [`skip (exists as ${ids.munich})`, 'chamber', 'munich', 'Munich Chamber', ids.munich],
      [`skip (exists as ${ids.hamburg})`, 'chamber', 'hamburg', 'Hamburg Chamber', ids.hamburg],
      ['create', 'chamber', 'kiel', 'Kiel', null],
      // Another HQ than the server's Potsdam: seed does not take it for that one.
      [`create (differs from ${ids.potsdam})`, 'chamber', 'potsdam', 'Potsdam Chamber', null],
      ['create', 'member', 'potsdam', 'pia@example.com', null],
    ])
    const plain = await plan(file)
    expect(plain[0]).toEqual([
      `create again (exists as ${ids.berlin})`,
      'chamber',
      'berlin',
      'Berlin Chamber',
      null,
    ])
    expect(plain.filter((step) => step[1] === 'member').map((step) => step[0])).toEqual(
      Array(5).fill('create'),
    )
    // diff says the same: potsdam's hq differs, kiel and grace would be created.
    const { stdout } = await run(['diff', file, '--members'])
    expect(lines(stdout).map((line) => line.split('\t').slice(0, 5).join(' '))).toEqual([
      '+ member berlin grace@example.com ',
      '~ chamber potsdam  hq_id',
      '+ chamber kiel  ',
    ])
  })
})
