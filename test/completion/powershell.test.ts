// PowerShell completion: PowerShell is not on the machines that run these tests, so the script
// itself is checked as text (the committed file is the generated one: scripts.test.ts), and what
// it calls, `chamberctl __complete words`, runs for real (the built CLI, a sandbox in this
// process) with the words a PowerShell user typed, passed the way the script passes them.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createContext } from '../../src/cli/main.js'
import { createProgram } from '../../src/cli/program.js'
import { describeProgram } from '../../src/commands/completion/model.js'
import { WORD_MARK } from '../../src/commands/completion/powershell.js'
import { wanted } from '../../src/commands/completion/words.js'
import {
  CHAMBER_IDS,
  credentialsEnv,
  loginArgs,
  useSandbox,
  useTempDirs,
} from '../helpers/sandbox.js'
import { lines } from '../helpers/output.js'
import { runCli } from '../helpers/run-cli.js'
import { createTestIO } from '../helpers/test-io.js'
import { cacheChamberIds, scriptPath } from './helpers.js'

const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-powershell-')

type Answer = { candidates: string[]; descriptions: (string | undefined)[]; directive: string }

// `line` as typed up to the cursor: the words after `chamberctl`, the last one the word being
// completed ('' after a blank), each behind the mark, as the script's ScriptBlock builds them.
async function complete(line: string, env: NodeJS.ProcessEnv = {}, configDir = tempDir()) {
  const typed = line.split(/\s+/).slice(1)
  const words = typed.map((word) => WORD_MARK + word)
  const { code, stdout, stderr } = await runCli(['__complete', 'words', ...words], {
    configDir,
    env,
  })
  expect(code, stderr).toBe(0)
  expect(stderr).toBe('')
  const all = lines(stdout)
  const entries = all.slice(0, -1).map((entry) => entry.split('\t'))
  return {
    candidates: entries.map(([value]) => value!),
    descriptions: entries.map(([, description]) => description),
    directive: all.at(-1)!,
  } satisfies Answer
}

describe('the script', () => {
  const script = readFileSync(scriptPath('powershell'), 'utf8')

  it('registers a native completer for chamberctl that calls `__complete words`', () => {
    expect(script).toMatch(/^Register-ArgumentCompleter -Native -CommandName chamberctl -Sc/m)
    expect(script).toContain('& chamberctl __complete words @words 2>$null')
    // Every word, the one at the cursor too, goes behind the mark the callback strips.
    expect(script.match(new RegExp(`'${WORD_MARK}' \\+ \\$`, 'g'))).toHaveLength(3)
    expect(script).toContain("$lines[-1] -eq ':files'")
  })

  it('says how to install it', () => {
    expect(script).toContain('chamberctl completion powershell | Out-String | Invoke-Expression')
    expect(script).toContain('$PROFILE')
  })
})

describe('what the words ask for (the walk, in this process)', () => {
  const model = describeProgram(createProgram(createContext(createTestIO().io)))

  it.each([
    [
      ['chambers', 'create', '--hq-id=ch_00'],
      { kind: 'chamber-ids', prefix: 'ch_00', lead: '--hq-id=', pass: [] },
    ],
    [
      ['--profile', 'work', '-o', 'json', 'members', 'list', '--sandbox', ''],
      { kind: 'chamber-ids', prefix: '', lead: '', pass: ['--profile', 'work', '--sandbox'] },
    ],
    [
      ['--base-url=http://127.0.0.1:4010/v2', 'events', 'ls', 'c'],
      { kind: 'chamber-ids', prefix: 'c', lead: '', pass: ['--base-url=http://127.0.0.1:4010/v2'] },
    ],
    // The chamber id is given: members add takes nothing more as an argument.
    [['members', 'add', 'ch_0001', ''], { kind: 'values', candidates: [] }],
    [['auth', 'switch', 'w'], { kind: 'profiles', prefix: 'w', lead: '', pass: [] }],
    [['api', '/chambers', '--input', ''], { kind: 'files' }],
  ])('%j → %j', (typed, expected) => {
    expect(wanted(model, typed)).toEqual(expected)
  })
})

describe('__complete words, as the PowerShell script calls it', () => {
  it.each([
    ['chamberctl ch', ['chambers']],
    ['chamberctl chambers ', ['list', 'get', 'create']],
    ['chamberctl chambers ls --type ', ['hq', 'subsidiary']],
    ['chamberctl members list --json --status ', ['active', 'inactive', 'pending']],
    ['chamberctl -o nd', ['ndjson']],
    ['chamberctl chambers list --output=j', ['--output=json']],
    ['chamberctl completion ', ['bash', 'zsh', 'fish', 'powershell']],
    ['chamberctl chambers get --inc', ['--include']],
    // A value is skipped over: `--type hq` leaves `chambers list` the command.
    ['chamberctl chambers list --type hq --st', ['--status']],
    // The fields of what the command prints; in a list, the last one, the given ones left out.
    [
      'chamberctl chambers list --fields=address.c',
      ['--fields=address.city', '--fields=address.country'],
    ],
    [
      'chamberctl members list ch_0001 --fields id,name,',
      [
        'id,name,email',
        'id,name,phone',
        'id,name,membership_type',
        'id,name,status',
        'id,name,joined_at',
        'id,name,chamber_id',
      ],
    ],
    // The topics, then the commands.
    ['chamberctl help e', ['environment', 'exit-codes', 'events', 'export']],
    // After `--` nothing is an option.
    ['chamberctl api -- -', []],
    // Values nothing can guess, and hidden commands: nothing.
    ['chamberctl chambers create --name ', []],
    ['chamberctl __', []],
  ])('%j → %j', async (line, expected) => {
    const answer = await complete(line)
    expect(answer.candidates).toEqual(expected)
    expect(answer.directive).toBe(':values')
  })

  it('offers options with their descriptions, the command’s own and the global ones', async () => {
    const answer = await complete('chamberctl members add --')
    expect(answer.candidates).toEqual(
      expect.arrayContaining(['--from-file', '--dry-run', '--json', '--profile']),
    )
    const index = answer.candidates.indexOf('--dry-run')
    expect(answer.descriptions[index]).toMatch(/\S/)
  })

  it('leaves a file name to PowerShell', async () => {
    const answer = await complete('chamberctl chambers create --from-file ')
    expect(answer).toEqual({ candidates: [], descriptions: [], directive: ':files' })
  })

  it('completes chamber ids from the server, with their names as descriptions', async () => {
    // Listed first in this process (helpers.ts, cacheChamberIds): the CLI answers from its cache.
    const configDir = tempDir()
    const env = credentialsEnv(sandbox())
    await cacheChamberIds({ CHAMBERCTL_CONFIG_DIR: configDir, ...env })
    const answer = await complete('chamberctl members list ', env, configDir)
    expect(answer.candidates).toEqual(CHAMBER_IDS)
    expect(answer.descriptions.every((name) => name && /\S/.test(name))).toBe(true)
    const prefixed = await complete('chamberctl chambers get ch_000', env, configDir)
    expect(prefixed.candidates).toEqual(CHAMBER_IDS.slice(0, 9))
  })

  it('takes --profile and --sandbox from the line for the ids', async () => {
    const configDir = tempDir()
    const login = await runCli([...loginArgs(sandbox()), '--profile', 'other'], {
      configDir,
      stdin: { text: `${sandbox().sandbox.credentials.clientSecret}\n` },
    })
    expect(login.code, login.stderr).toBe(0)
    // Listed first in this process (helpers.ts, cacheChamberIds): the CLI answers from its cache.
    await cacheChamberIds({ CHAMBERCTL_CONFIG_DIR: configDir }, ['--profile', 'other'])
    await cacheChamberIds({ CHAMBERCTL_CONFIG_DIR: configDir }, ['--sandbox'])
    // The default profile does not exist: nothing.
    expect((await complete('chamberctl events list ', {}, configDir)).candidates).toEqual([])
    for (const line of [
      'chamberctl --profile other events list ',
      'chamberctl events list --profile=other ',
      'chamberctl --sandbox chambers get ',
    ]) {
      expect((await complete(line, {}, configDir)).candidates, line).toEqual(CHAMBER_IDS)
    }
  })

  it('completes profile names, by prefix', async () => {
    const configDir = tempDir()
    const profiles = { work: {}, 'home.lab': {}, default: {}, 'not a name;rm': {} }
    writeFileSync(path.join(configDir, 'config.json'), JSON.stringify({ profiles }), {
      mode: 0o600,
    })
    expect((await complete('chamberctl auth switch ', {}, configDir)).candidates).toEqual([
      'default',
      'home.lab',
      'work',
    ])
    expect((await complete('chamberctl --profile=h', {}, configDir)).candidates).toEqual([
      '--profile=home.lab',
    ])
  })
})
