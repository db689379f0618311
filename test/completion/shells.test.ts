// Completion as a user gets it: the shipped scripts run in bash (COMP_* variables set by hand),
// zsh (a pseudo-terminal) and fish (`complete -C`), with chamber ids coming from the built CLI
// against a sandbox in this process.
import { chmodSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  CHAMBER_IDS,
  credentialsEnv,
  loginArgs,
  useSandbox,
  useTempDirs,
} from '../helpers/sandbox.js'
import { runCli } from '../helpers/run-cli.js'
import {
  bashComplete,
  cacheChamberIds,
  fishComplete,
  hasShell,
  wrapperDir,
  zshComplete,
} from './helpers.js'
import type { ShellRun } from './helpers.js'

const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-completion-')

const FORMATS = ['table', 'tsv', 'json', 'ndjson', 'csv', 'yaml']
const TOPICS = [
  'environment',
  'exit-codes',
  'formatting',
  'bulk',
  'fixtures',
  'credentials',
  'options',
  'reference',
]
const MEMBER_FIELDS = [
  'id',
  'name',
  'email',
  'phone',
  'membership_type',
  'status',
  'joined_at',
  'chamber_id',
]
// --fields after a command that prints records: that resource's fields, nested ones dotted; in a
// comma list the last element is completed, the ones before kept, the ones given not offered.
const FIELD_CASES: [string, string[]][] = [
  ['chamberctl members list ch_0001 --fields ', MEMBER_FIELDS],
  ['chamberctl chambers list --fields address.c', ['address.city', 'address.country']],
  ['chamberctl chambers get ch_0001 --fields id,na', ['id,name']],
  ['chamberctl events list ch_0001 --fields id,title,s', ['id,title,status', 'id,title,starts_at']],
  ['chamberctl report members --fields email,chamber_c', ['email,chamber_city']],
  ['chamberctl report duplicates --fields k', ['key']],
  [
    'chamberctl members list ch_0001 --fields email,id,',
    MEMBER_FIELDS.filter((f) => !['email', 'id'].includes(f)).map((f) => `email,id,${f}`),
  ],
]

// A config directory with three profiles, and one whose name (hand-edited) no command accepts.
function withProfiles(): ShellRun {
  const configDir = tempDir()
  const profiles = { work: {}, 'home.lab': {}, default: {}, 'not a name;rm': {} }
  writeFileSync(path.join(configDir, 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 })
  return { pathDir: wrapperDir(tempDir()), env: { CHAMBERCTL_CONFIG_DIR: configDir } }
}

// A `chamberctl` on PATH whose `__complete chamber-ids` answers these lines (id<TAB>name).
function fakeChamberIds(lines: string[]): ShellRun {
  const dir = tempDir()
  writeFileSync(path.join(dir, 'ids.txt'), lines.map((line) => `${line}\n`).join(''))
  writeFileSync(path.join(dir, 'chamberctl'), `#!/bin/sh\nexec cat '${dir}/ids.txt'\n`)
  chmodSync(path.join(dir, 'chamberctl'), 0o755)
  return { pathDir: dir, env: { CHAMBERCTL_CONFIG_DIR: tempDir() } }
}

// bash lists several ids as "id  (name)": the ids alone.
const idsOf = (entries: string[]) => entries.map((entry) => entry.split(' ')[0])

// The built CLI on PATH as `chamberctl`, the sandbox's credentials, a private config directory
// whose completion cache holds the sandbox's chambers (`lookup`: what the line adds to `env`).
async function withSandboxEnv(
  env: NodeJS.ProcessEnv = credentialsEnv(sandbox()),
  lookup: NodeJS.ProcessEnv = {},
): Promise<ShellRun> {
  const configDir = tempDir()
  await cacheChamberIds({ CHAMBERCTL_CONFIG_DIR: configDir, ...env, ...lookup })
  return { pathDir: wrapperDir(tempDir()), env: { CHAMBERCTL_CONFIG_DIR: configDir, ...env } }
}

describe('bash', () => {
  it.each([
    ['chamberctl ch', ['chambers']],
    ['chamberctl chambers ', ['list', 'get', 'create']],
    ['chamberctl chambers list --type ', ['hq', 'subsidiary']],
    ['chamberctl members list --status ', ['active', 'inactive', 'pending']],
    ['chamberctl events list --status p', ['past']],
    ['chamberctl -o ', FORMATS],
    ['chamberctl chambers list --json -o nd', ['ndjson']],
    ['chamberctl completion ', ['bash', 'zsh', 'fish', 'powershell']],
    ['chamberctl auth ', ['status', 'switch', 'token']],
    ['chamberctl chambers get --inc', ['--include']],
    // Global options after the command, its own options, long and short forms.
    ['chamberctl members add --', expect.arrayContaining(['--from-file', '--dry-run', '--json'])],
    ['chamberctl api -', expect.arrayContaining(['-X', '-H', '-i', '-o', '-q', '-h'])],
    // A value is skipped over: `--type hq` leaves `chambers list` the command.
    ['chamberctl chambers list --type hq --st', ['--status']],
    // Flags that take no value, or values nothing can guess, offer nothing.
    ['chamberctl chambers create --name ', []],
    ['chamberctl chambers list --all ', []],
    // Hidden commands are not offered.
    ['chamberctl __', []],
  ])('%j → %j', async (line, expected) => {
    expect(await bashComplete(line)).toEqual(expected)
  })

  it('--output=<TAB>, split at "=" as bash does, completes the value alone', async () => {
    const words = ['chamberctl', '--output', '=', 'j']
    expect(await bashComplete('chamberctl --output=j', { words })).toEqual(['json'])
  })

  it('options that take a file complete to file names', async () => {
    const dir = tempDir()
    const prefix = `${dir}/`
    writeFileSync(`${dir}/chambers.json`, '{}')
    expect(await bashComplete(`chamberctl chambers create --from-file ${prefix}ch`)).toEqual([
      `${dir}/chambers.json`,
    ])
    expect(await bashComplete(`chamberctl api /chambers --input ${prefix}`)).toEqual([
      `${dir}/chambers.json`,
    ])
  })

  it.each(['chambers get', 'members list', 'members add', 'events list'])(
    '`chamberctl %s <TAB>` completes the chamber ids from the server',
    async (command) => {
      const ids = await bashComplete(`chamberctl ${command} `, await withSandboxEnv())
      expect(idsOf(ids)).toEqual(CHAMBER_IDS)
    },
  )

  it('completes ids by prefix, several with their names, one alone bare', async () => {
    const several = await bashComplete('chamberctl chambers get ch_000', await withSandboxEnv())
    expect(idsOf(several)).toEqual(CHAMBER_IDS.slice(0, 9))
    expect(several[0]).toBe('ch_0001  (Berlin Chamber of Commerce)')
    expect(await bashComplete('chamberctl chambers get ch_0002', await withSandboxEnv())).toEqual([
      'ch_0002',
    ])
  })

  it('pads the ids to one column and cuts the names to the terminal width', async () => {
    const run = fakeChamberIds(['ch_1\tBerlin', 'ch_12345\tMunich Chamber of Industry', 'x\tX'])
    expect(await bashComplete('chamberctl chambers get ch_', run)).toEqual([
      'ch_1      (Berlin)',
      'ch_12345  (Munich Chamber of Industry)',
    ])
    const narrow = { ...run, env: { ...run.env, COLUMNS: '30' } }
    expect(await bashComplete('chamberctl chambers get ch_', narrow)).toEqual([
      'ch_1      (Berlin)',
      'ch_12345  (Munich Chamber of…)',
    ])
    // --hq-id=<TAB>: what precedes the "=" is left out, as for any value.
    const words = ['chamberctl', 'chambers', 'create', '--hq-id', '=', 'ch_']
    expect(await bashComplete('chamberctl chambers create --hq-id=ch_', { ...run, words })).toEqual(
      ['ch_1      (Berlin)', 'ch_12345  (Munich Chamber of Industry)'],
    )
  })

  it('menu-complete (COMP_TYPE 37) inserts the ids bare, one at a time', async () => {
    const run = fakeChamberIds(['ch_1\tBerlin', 'ch_2\tHamburg'])
    expect(
      await bashComplete('chamberctl chambers get ', {
        ...run,
        env: { ...run.env, COMP_TYPE: '37' },
      }),
    ).toEqual(['ch_1', 'ch_2'])
  })

  it('passes --profile from the line on, so the ids come from that profile', async () => {
    const configDir = tempDir()
    const login = await runCli([...loginArgs(sandbox()), '--profile', 'other'], {
      configDir,
      stdin: { text: `${sandbox().sandbox.credentials.clientSecret}\n` },
    })
    expect(login.code, login.stderr).toBe(0)
    const run = { pathDir: wrapperDir(tempDir()), env: { CHAMBERCTL_CONFIG_DIR: configDir } }
    // The default profile does not exist: nothing.
    expect(await bashComplete('chamberctl members list ', run)).toEqual([])
    expect(idsOf(await bashComplete('chamberctl --profile other members list ', run))).toEqual(
      CHAMBER_IDS,
    )
    expect(idsOf(await bashComplete('chamberctl members list --profile=other ', run))).toEqual(
      CHAMBER_IDS,
    )
  })

  it.each([
    ['chamberctl --profile ', ['default', 'home.lab', 'work']],
    ['chamberctl chambers list --profile w', ['work']],
    ['chamberctl auth switch ', ['default', 'home.lab', 'work']],
    ['chamberctl auth switch h', ['home.lab']],
  ])('%j offers the profile names → %j', async (line, expected) => {
    expect(await bashComplete(line, withProfiles())).toEqual(expected)
  })

  it('--profile=<TAB>, split at "=" as bash does, completes the profile name alone', async () => {
    const words = ['chamberctl', 'logout', '--profile', '=', 'd']
    expect(
      await bashComplete('chamberctl logout --profile=d', { ...withProfiles(), words }),
    ).toEqual(['default'])
  })

  it('offers no profile names when there are none', async () => {
    expect(await bashComplete('chamberctl auth switch ', await withSandboxEnv())).toEqual([])
  })

  it.each(FIELD_CASES)('%j offers the fields → %j', async (line, expected) => {
    expect(await bashComplete(line)).toEqual(expected)
  })

  it('--fields=<TAB>, split at "=" as bash does, completes the list alone', async () => {
    const words = ['chamberctl', 'members', 'list', 'x', '--fields', '=', 'id,em']
    const line = 'chamberctl members list x --fields=id,em'
    expect(await bashComplete(line, { words })).toEqual(['id,email'])
  })

  it('`help <TAB>` offers the topics and the commands', async () => {
    const offered = await bashComplete('chamberctl help ')
    expect(offered.slice(0, TOPICS.length)).toEqual(TOPICS)
    expect(offered).toEqual(expect.arrayContaining(['chambers', 'members', 'auth', 'completion']))
    expect(offered).not.toContain('__complete')
    expect(await bashComplete('chamberctl help e')).toEqual([
      'environment',
      'exit-codes',
      'events',
      'export',
    ])
  })

  it('passes --base-url on, rejoining the pieces bash splits at ":"', async () => {
    const { CHAMBERCTL_CLIENT_ID, CHAMBERCTL_CLIENT_SECRET } = credentialsEnv(sandbox())
    const url = sandbox().v2
    const run = await withSandboxEnv(
      { CHAMBERCTL_CLIENT_ID, CHAMBERCTL_CLIENT_SECRET },
      { CHAMBERCTL_BASE_URL: url },
    )
    const line = `chamberctl --base-url ${url} chambers get `
    // http://127.0.0.1:PORT/v2 is five words to bash.
    const [scheme, rest] = url.split('://') as [string, string]
    const [host, port] = rest.split(':') as [string, string]
    const words = ['chamberctl', '--base-url', scheme, ':', `//${host}`, ':', port, 'chambers']
    expect(idsOf(await bashComplete(line, { ...run, words: [...words, 'get', ''] }))).toEqual(
      CHAMBER_IDS,
    )
  })
})

describe.skipIf(!hasShell('zsh'))('zsh', () => {
  it.each([
    ['chamberctl ch', ['chambers']],
    ['chamberctl chambers ', ['list', 'get', 'create']],
    ['chamberctl chambers list --type ', ['hq', 'subsidiary']],
    ['chamberctl members list --json --status ', ['active', 'inactive', 'pending']],
    ['chamberctl -o ', FORMATS],
    ['chamberctl completion ', ['bash', 'zsh', 'fish', 'powershell']],
  ])('%j → %j', async (line, expected) => {
    expect(await zshComplete(line)).toEqual(expected)
  })

  it('`chamberctl chambers get <TAB>` completes the chamber ids from the server', async () => {
    expect(await zshComplete('chamberctl chambers get ', await withSandboxEnv())).toEqual(
      CHAMBER_IDS,
    )
  })

  it.each(FIELD_CASES)('%j offers the fields → %j', async (line, expected) => {
    // zsh completes the last element alone, after the ones before it.
    const last = expected.map((value) => value.slice(value.lastIndexOf(',') + 1))
    expect((await zshComplete(line)).sort()).toEqual([...last].sort())
  })

  it('`help <TAB>` offers the topics and the commands', async () => {
    const offered = await zshComplete('chamberctl help ')
    expect(offered).toEqual(expect.arrayContaining([...TOPICS, 'chambers', 'members', 'auth']))
    expect(await zshComplete('chamberctl help ex')).toEqual(['exit-codes', 'export'])
  })

  it.each(['chamberctl auth switch ', 'chamberctl --profile '])(
    '%j offers the profile names',
    async (line) => {
      expect((await zshComplete(line, withProfiles())).sort()).toEqual([
        'default',
        'home.lab',
        'work',
      ])
    },
  )
})

describe.skipIf(!hasShell('fish'))('fish', () => {
  const values = (entries: string[]) => entries.map((entry) => entry.split('\t')[0])

  it.each([
    ['chamberctl ch', ['chambers']],
    ['chamberctl chambers ', ['create', 'get', 'list']],
    ['chamberctl chambers list --type ', ['hq', 'subsidiary']],
    ['chamberctl members list --json --status ', ['active', 'inactive', 'pending']],
    ['chamberctl -o ', [...FORMATS].sort()],
    ['chamberctl completion ', ['bash', 'fish', 'powershell', 'zsh']],
  ])('%j → %j', async (line, expected) => {
    expect(values(await fishComplete(line))).toEqual(expected)
  })

  it.each(FIELD_CASES)('%j offers the fields → %j', async (line, expected) => {
    expect(values(await fishComplete(line)).sort()).toEqual([...expected].sort())
  })

  it('`help <TAB>` offers the topics and the commands', async () => {
    const offered = values(await fishComplete('chamberctl help '))
    expect(offered).toEqual(expect.arrayContaining([...TOPICS, 'chambers', 'members', 'auth']))
    expect(values(await fishComplete('chamberctl help ex')).sort()).toEqual([
      'exit-codes',
      'export',
    ])
  })

  it('`chamberctl events list <TAB>` completes ids, with the names as descriptions', async () => {
    const entries = await fishComplete('chamberctl events list ', await withSandboxEnv())
    expect(values(entries).sort()).toEqual(CHAMBER_IDS)
    expect(entries.every((entry) => /^ch_\d{4}\t\S/.test(entry))).toBe(true)
  })

  it.each(['chamberctl auth switch ', 'chamberctl members list --profile '])(
    '%j offers the profile names',
    async (line) => {
      expect(values(await fishComplete(line, withProfiles())).sort()).toEqual([
        'default',
        'home.lab',
        'work',
      ])
    },
  )
})
