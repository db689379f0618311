// `chambers create` from flags, files and stdin, with --dry-run, local validation and the
// server's 422; never prompting without a terminal; the prompts on one, driven by keystrokes,
// against a real sandbox in-process. And the search of its headquarters prompt: the exact id
// first, then names with a word that starts with what was typed, then any id or name that
// contains it.
import { describe, expect, it } from 'vitest'
import { matchHqs } from '../../../src/commands/chambers/create.js'
import { lines } from '../../helpers/output.js'
import { KEY, finishes } from '../../helpers/session.js'
import {
  CHAMBER_POSTS,
  NOT_PROMPTING,
  stdinOnTerminal,
  NO_TERMINAL,
  screenLines,
  tableRecord,
  tsvRecord,
  useWriteSandbox,
} from '../../helpers/writes.js'
import type { Rec } from '../../sandbox/helpers.js'

const { sandbox, demo, state, posts, file, createChamber, interactive, silentSession } =
  useWriteSandbox()

const CHAMBER_TSV = ['id', 'name', 'type', 'hq_id', 'status', 'address.city', 'created_at']

describe('chambers create from flags and files', () => {
  it('creates an hq, prints it as TSV in a pipe and confirms on stderr', async () => {
    const { code, stdout, stderr } = await createChamber([
      ...['--name', 'Erfurt Chamber', '--type', 'hq'],
      ...['--address-field', 'city=Erfurt'],
    ])
    expect(code, stderr).toBe(0)
    const printed = tsvRecord(stdout, CHAMBER_TSV)
    expect(printed).toMatchObject({
      name: 'Erfurt Chamber',
      type: 'hq',
      hq_id: '',
      status: 'active',
      'address.city': 'Erfurt',
    })
    expect(stderr).toBe(`Created chamber ${printed.id} (Erfurt Chamber)\n`)
    expect(await state().chamber(printed.id!)).toMatchObject({
      name: 'Erfurt Chamber',
      type: 'hq',
      hq_id: null,
      address: { city: 'Erfurt' },
    })
    expect(posts(CHAMBER_POSTS)).toEqual(['201 /v2/chambers'])
  })

  it('creates a subsidiary of the hq given with --hq-id and prints the JSON object', async () => {
    const { code, stdout, stderr } = await createChamber([
      ...['--name', 'Kiel Chamber', '--type', 'subsidiary', '--hq-id', 'ch_0002'],
      ...['--address-field', 'city=Kiel', '--json'],
    ])
    expect(code, stderr).toBe(0)
    const printed = JSON.parse(stdout) as Rec
    expect(printed).toMatchObject({ name: 'Kiel Chamber', type: 'subsidiary', hq_id: 'ch_0002' })
    expect(stderr).toBe(`Created chamber ${printed.id} (Kiel Chamber)\n`)
    expect(await state().chamber(printed.id)).toEqual(printed)
  })

  // The spec requires hq_id of a subsidiary only: an hq's is sent, and the sandbox drops it.
  it('sends the --hq-id of an hq, which the sandbox leaves out', async () => {
    const { code, stdout, stderr } = await createChamber([
      ...['--name', 'Gera Chamber', '--type', 'hq', '--hq-id', 'ch_0001'],
      ...['--address-field', 'city=Gera', '--json'],
    ])
    expect(code, stderr).toBe(0)
    const printed = JSON.parse(stdout) as Rec
    expect(printed).toMatchObject({ name: 'Gera Chamber', type: 'hq', hq_id: null })
    expect(await state().chamber(printed.id)).toEqual(printed)
  })

  it('takes the whole address as JSON with --address', async () => {
    const address = {
      street: 'Markt 1',
      city: 'Leipzig',
      postal_code: '04109',
      region: 'Saxony',
      country: 'DE',
    }
    const args = ['--name', 'Leipzig', '--type', 'hq', '--address', JSON.stringify(address)]
    const { code, stdout } = await createChamber([...args, '--json'])
    expect(code).toBe(0)
    const { id } = JSON.parse(stdout) as Rec
    expect((await state().chamber(id)).address).toEqual(address)
  })

  it('builds the address from repeated --address-field, keeping the zero of 03046', async () => {
    const { code, stdout } = await createChamber([
      ...['--name', 'Cottbus Two', '--type', 'hq', '--json'],
      ...['--address-field', 'street=Goethestr. 1', '--address-field', 'city=Cottbus'],
      ...['--address-field', 'postal_code=03046'],
    ])
    expect(code).toBe(0)
    const printed = JSON.parse(stdout) as Rec
    const address = { street: 'Goethestr. 1', city: 'Cottbus', postal_code: '03046' }
    expect(printed.address).toEqual(address)
    expect((await state().chamber(printed.id)).address).toEqual(address)
  })

  it('merges --address-field over --address key by key', async () => {
    const { code, stdout } = await createChamber([
      ...['--name', 'Merged', '--type', 'hq', '--json'],
      ...['--address', '{"city":"Halle","country":"DE"}', '--address-field', 'city=Halle (Saale)'],
    ])
    expect(code).toBe(0)
    expect((JSON.parse(stdout) as Rec).address).toEqual({ city: 'Halle (Saale)', country: 'DE' })
  })

  it('reads every field from a JSON object with --from-file', async () => {
    const body = {
      name: 'Rostock Chamber',
      type: 'subsidiary',
      hq_id: 'ch_0002',
      address: { city: 'Rostock', postal_code: '18055' },
    }
    const { code, stdout, stderr } = await createChamber([
      '--from-file',
      file('chamber.json', JSON.stringify(body, null, 2)),
      '--json',
    ])
    expect(code, stderr).toBe(0)
    expect(JSON.parse(stdout)).toMatchObject(body)
  })

  it('reads the object from stdin with --from-file -, flags overriding its fields', async () => {
    const body = {
      name: 'From The File',
      type: 'hq',
      address: { city: 'Dresden', postal_code: '01067' },
    }
    const { code, stdout, stderr } = await createChamber(
      ['--from-file', '-', '--name', 'From The Flag', '--address-field', 'city=Leipzig', '--json'],
      { stdin: JSON.stringify(body) },
    )
    expect(code, stderr).toBe(0)
    const printed = JSON.parse(stdout) as Rec
    expect(printed).toMatchObject({ name: 'From The Flag', type: 'hq' })
    expect(printed.address).toEqual({ city: 'Leipzig', postal_code: '01067' })
    expect(await state().chamber(printed.id)).toMatchObject({ name: 'From The Flag' })
  })

  it('prints the created record as a key/value table on a TTY', async () => {
    const { code, stdout, stderr } = await createChamber(
      ['--name', 'Jena Chamber', '--type', 'hq', '--address-field', 'city=Jena'],
      { stdoutIsTTY: true, stdoutWidth: 200, env: { NO_COLOR: '1' } },
    )
    expect(code, stderr).toBe(0)
    expect(lines(stdout)[0]).toMatch(/^id: +ch_\d+$/)
    const printed = tableRecord(stdout)
    expect(printed).toMatchObject({ name: 'Jena Chamber', type: 'hq', 'address.city': 'Jena' })
    expect(printed.id).toMatch(/^ch_\d+$/)
    expect(stderr).toBe(`Created chamber ${printed.id} (Jena Chamber)\n`)
  })

  it('prints the request body with --dry-run and sends nothing', async () => {
    const { code, stdout, stderr } = await createChamber([
      ...['--name', 'Dry Chamber', '--type', 'subsidiary', '--hq-id', 'ch_0001'],
      ...['--address-field', 'postal_code=03046', '--dry-run'],
    ])
    expect(code, stderr).toBe(0)
    expect(JSON.parse(stdout)).toEqual({
      name: 'Dry Chamber',
      type: 'subsidiary',
      hq_id: 'ch_0001',
      address: { postal_code: '03046' },
    })
    expect(stderr).toBe(`Dry run: would send POST ${sandbox().v2}/chambers\n`)
    expect(posts(CHAMBER_POSTS)).toEqual([])
    expect((await state().chambers()).map((c) => c.name)).not.toContain('Dry Chamber')
  })
})

describe('chambers create: local validation, exit 2 before anything is sent', () => {
  const HQ = ['--name', 'Valid Name', '--type', 'hq']
  it.each<[string, string[], string | undefined, string[]]>([
    [
      'every missing value at once',
      [],
      undefined,
      [`error: missing --name, --type, --address or --address-field ${NOT_PROMPTING}`],
    ],
    [
      'a subsidiary without --hq-id',
      ['--name', 'Sub', '--type', 'subsidiary', '--address-field', 'city=Suhl'],
      undefined,
      [`error: missing --hq-id ${NOT_PROMPTING}`],
    ],
    [
      'a type from the file that is neither hq nor subsidiary',
      ['--from-file', '-'],
      '{"name":"Typo","type":"branch","address":{"city":"Gera"}}',
      ['error: chamber is not valid: type', '  type  must be one of: hq, subsidiary'],
    ],
    [
      'an --address that is not an object',
      [...HQ, '--address', '["Berlin"]'],
      undefined,
      ['error: --address: must be a JSON object'],
    ],
    [
      'an --address that is not JSON',
      [...HQ, '--address', '{city: Berlin}'],
      undefined,
      [`error: --address: not valid JSON; give an object like '{"city":"Berlin"}'`],
    ],
    [
      'an address in the file that is not an object',
      ['--from-file', '-'],
      '{"name":"Valid Name","type":"hq","address":"Berlin"}',
      ['error: chamber is not valid: address', '  address  must be an object'],
    ],
    [
      'several bad fields, each named',
      ['--from-file', '-'],
      '{"name":" ","type":"hq","address":{"postal_code":3046}}',
      [
        'error: chamber is not valid: name, address.postal_code',
        '  name                 is required',
        '  address.postal_code  must be a string',
      ],
    ],
  ])('refuses %s', async (_, args, stdin, expected) => {
    const { code, stdout, stderr } = await createChamber(args, { stdin })
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(lines(stderr)).toEqual(expected)
    expect(posts(CHAMBER_POSTS)).toEqual([])
  })

  it('refuses a --from-file that is not one JSON object', async () => {
    const { code, stderr } = await createChamber(['--from-file', '-'], { stdin: '[{"name":"A"}]' })
    expect(code).toBe(2)
    expect(stderr).toBe('error: stdin: expected one JSON object, found an array\n')
    expect(posts(CHAMBER_POSTS)).toEqual([])
  })
})

describe("the server's 422: exit 2 with the fields", () => {
  it('shows hq_id when the hq given is a subsidiary', async () => {
    const { code, stdout, stderr } = await createChamber([
      ...['--name', 'Under Potsdam', '--type', 'subsidiary', '--hq-id', 'ch_0005'],
      ...['--address-field', 'city=Werder'],
    ])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(lines(stderr)).toEqual([
      'error: validation failed (HTTP 422)',
      '  hq_id  ch_0005 is not an hq chamber',
    ])
    expect(posts(CHAMBER_POSTS)).toEqual(['422 /v2/chambers'])
  })
})

describe('chambers create --from-file - on a terminal', () => {
  // stdin is read once: after the record's end of input, a prompt would close at once.
  it('asks nothing, stdin having been the input: exit 2 naming what is missing', async () => {
    const { code, stdout, stderr } = await createChamber(
      ['--from-file', '-'],
      stdinOnTerminal('{"name":"From Stdin"}'),
    )
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe(
      'error: missing --type, --address or --address-field (not prompting: stdin was the input, --from-file -)\n',
    )
    expect(posts(CHAMBER_POSTS)).toEqual([])
  })
})

describe('never prompting and never waiting without a terminal', () => {
  it.each(NO_TERMINAL)(
    'chambers create with %s: exit 2 naming every missing flag',
    async (_, flags, env, options) => {
      const running = silentSession(
        ['chambers', 'create', '--name', 'Only A Name', ...flags],
        env,
        options,
      )
      const { code, stdout, stderr } = await finishes(running)
      expect(code).toBe(2)
      expect(stdout).toBe('')
      expect(stderr).toBe(`error: missing --type, --address or --address-field ${NOT_PROMPTING}\n`)
      expect(running.stdin.readableFlowing).toBeNull()
      expect(posts(CHAMBER_POSTS)).toEqual([])
    },
  )
})

describe('interactive prompts on a terminal', () => {
  it('chambers create asks name, type, hq (searching the hqs), address, then confirms', async () => {
    const { session, prompts } = interactive(['chambers', 'create'])
    await prompts.answer(/\? Name/, `Leipzig Chamber${KEY.enter}`)
    await prompts.next(/\? Type/)
    await prompts.answer(/❯ hq \(headquarters\)/, KEY.down)
    await prompts.answer(/❯ subsidiary \(of an hq\)/, KEY.enter)
    await prompts.next(/\? Headquarters/)
    const { before } = await prompts.next(/Vienna Economic Chamber \(ch_0004\)/)
    // The list offers the sandbox's hqs, and only them.
    for (const hq of demo.chambers.filter((c) => c.type === 'hq').slice(0, 3)) {
      expect(before).toContain(`${hq.name} (${hq.id})`)
    }
    expect(before).not.toMatch(/Potsdam|Cottbus/)
    // Not "Hamb": every "Chamber" contains it.
    session.stdin.write('Hamburg')
    await prompts.answer(/❯ Hamburg Chamber of Commerce \(ch_0002\)/, KEY.enter)
    await prompts.answer(/\? Street/, `Markt 8${KEY.enter}`)
    await prompts.answer(/\? City/, `Leipzig${KEY.enter}`)
    await prompts.answer(/\? Postal code/, `04109${KEY.enter}`)
    await prompts.answer(/\? Country/, `DE${KEY.enter}`)
    const summary = await prompts.next(/\? Create this chamber\?/)
    expect(lines(summary.before).slice(-5)).toEqual([
      'About to create:',
      '  name:    Leipzig Chamber',
      '  type:    subsidiary',
      '  hq:      Hamburg Chamber of Commerce (ch_0002)',
      '  address: street=Markt 8, city=Leipzig, postal_code=04109, country=DE',
    ])
    session.stdin.write(`y${KEY.enter}`)
    const { code, stdout, stderr } = await finishes(session)
    expect(code, stderr).toBe(0)
    const printed = tableRecord(stdout)
    expect(printed).toMatchObject({ name: 'Leipzig Chamber', hq_id: 'ch_0002' })
    expect(stderr).toContain(`Created chamber ${printed.id} (Leipzig Chamber)`)
    expect(await state().chamber(printed.id!)).toMatchObject({
      name: 'Leipzig Chamber',
      type: 'subsidiary',
      hq_id: 'ch_0002',
      address: { street: 'Markt 8', city: 'Leipzig', postal_code: '04109', country: 'DE' },
    })
  })

  it('with --yes skips the confirmation, the optional address fields and the hq question for an hq', async () => {
    const { session, prompts } = interactive(['chambers', 'create', '--yes'])
    await prompts.answer(/\? Name/, `Yes Chamber${KEY.enter}`)
    await prompts.answer(/❯ hq \(headquarters\)/, KEY.enter)
    await prompts.answer(/\? City/, `Weimar${KEY.enter}`)
    const { code, stdout, stderr } = await finishes(session)
    expect(code, stderr).toBe(0)
    expect(prompts.text()).not.toMatch(
      /Headquarters|Street|Postal code|Country|About to create|Create this chamber/,
    )
    const printed = tableRecord(stdout)
    expect(await state().chamber(printed.id!)).toMatchObject({
      name: 'Yes Chamber',
      type: 'hq',
      address: { city: 'Weimar' },
    })
  })

  it('sends nothing when the confirmation is answered no (exit 1)', async () => {
    const { session, prompts } = interactive([
      ...['chambers', 'create', '--type', 'hq', '--address-field', 'city=X'],
    ])
    await prompts.answer(/\? Name/, `Declined${KEY.enter}`)
    await prompts.answer(/\? Create this chamber\?/, `n${KEY.enter}`)
    const { code, stdout, stderr } = await finishes(session)
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(prompts.text()).not.toMatch(/\? Type|\? City/)
    // Quiet, as gh says it: no error.
    expect(screenLines(stderr).at(-1)).toBe('Cancelled')
    expect(stderr).not.toMatch(/error/)
    expect(posts(CHAMBER_POSTS)).toEqual([])
  })
  it.each([
    ['an hq', 'ch_0003', 'Munich Chamber of Industry and Commerce (ch_0003)'],
    ['no chamber', 'ch_9999', 'ch_9999 (no such chamber)'],
  ])('names an --hq-id given with the answers in the summary: %s', async (_, hqId, shown) => {
    const { session, prompts } = interactive([
      ...['chambers', 'create', '--type', 'subsidiary', '--hq-id', hqId],
      ...['--address-field', 'city=Jena'],
    ])
    await prompts.answer(/\? Name/, `Flag Hq${KEY.enter}`)
    const summary = await prompts.next(/\? Create this chamber\?/)
    expect(lines(summary.before)).toContain(`  hq:      ${shown}`)
    session.stdin.write(`n${KEY.enter}`)
    expect((await finishes(session)).code).toBe(1)
    expect(posts(CHAMBER_POSTS)).toEqual([])
  })
})

const HQS = [
  { id: 'ch_0001', name: 'Berlin Chamber of Commerce' },
  { id: 'ch_0002', name: 'Hamburg Chamber of Commerce' },
  { id: 'ch_0003', name: 'Munich Chamber of Industry and Commerce' },
  { id: 'ch_0010', name: 'Graz Chamber' },
]

const ids = (term: string) => matchHqs(HQS, term).map((hq) => hq.id)

describe('matchHqs', () => {
  it('ranks a word start of the name above a substring: "Hamb" is Hamburg, not Berlin', () => {
    expect(ids('Hamb')).toEqual(['ch_0002', 'ch_0001', 'ch_0003', 'ch_0010'])
    expect(ids('hamb')[0]).toBe('ch_0002')
  })

  it('puts the exact id first', () => {
    expect(ids('ch_0001')).toEqual(['ch_0001'])
    expect(matchHqs([...HQS, { id: 'x9', name: 'ch_0002 Friends' }], 'ch_0002')[0]!.id).toBe(
      'ch_0002',
    )
    expect(ids('CH_0010')[0]).toBe('ch_0010')
  })

  it('matches a word anywhere in the name by its start', () => {
    expect(ids('indus')).toEqual(['ch_0003'])
    expect(ids('com')).toEqual(['ch_0001', 'ch_0002', 'ch_0003'])
  })

  it('offers every hq, in order, for an empty term and none for a term nothing holds', () => {
    expect(ids('  ')).toEqual(HQS.map((hq) => hq.id))
    expect(ids('vienna')).toEqual([])
  })
})
