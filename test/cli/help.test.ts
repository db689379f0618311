// Help that teaches: examples on every command, the global options that apply to each (`help
// options <command...>`), every default shown, the manual's topics, `chamberctl` alone, a noun
// alone and `help <command...>`, the aliases, and `fields`.
import type { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { RESOURCES, fieldNames } from '../../src/api/resources/index.js'
import { createContext } from '../../src/cli/main.js'
import { TOPICS } from '../../src/cli/tree.js'
import { createProgram } from '../../src/cli/program.js'
import { runMain, useCommands } from '../helpers/run-main.js'
import { useSandbox } from '../helpers/sandbox.js'
import { lines } from '../helpers/output.js'
import { createTestIO } from '../helpers/test-io.js'

const sandbox = useSandbox()
const { run } = useCommands(sandbox)

// Every command a user can reach, by its path: the program, the nouns, the verbs.
function visiblePaths(): string[][] {
  const program = createProgram(createContext(createTestIO().io))
  const paths: string[][] = []
  const visit = (command: Command, path: string[]) => {
    paths.push(path)
    for (const child of program.createHelp().visibleCommands(command)) {
      visit(child, [...path, child.name()])
    }
  }
  visit(program, [])
  return paths
}

function examplesOf(help: string): string[] {
  const section = help.split('\nExamples:\n')[1] ?? ''
  return section.split('\n').filter((line) => line.startsWith('  $ '))
}

// How many of the words after `chamberctl` in an example name a command, walking down the tree.
function commandWords(example: string): number {
  const program = createProgram(createContext(createTestIO().io))
  const words = example.split('chamberctl ')[1]?.split(' ') ?? []
  let command: Command = program
  let count = 0
  for (const word of words) {
    const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word))
    if (!next) break
    command = next
    count++
  }
  return count
}

describe('help', () => {
  it.each(visiblePaths().map((path) => [path.join(' ') || '(program)', path]))(
    '%s: 2 to 4 examples that run chamberctl',
    async (_name, path) => {
      const { code, stdout, stderr } = await runMain([...path, '--help'])
      expect(code).toBe(0)
      expect(stderr).toBe('')
      const examples = examplesOf(stdout)
      expect(examples.length, stdout).toBeGreaterThanOrEqual(2)
      expect(examples.length, stdout).toBeLessThanOrEqual(4)
      // Each example runs a command that exists, down to a verb.
      for (const example of examples) expect(commandWords(example), example).toBeGreaterThan(0)
    },
  )

  // The global options `help options <command...>` lists: those that apply to it, and no others.
  async function globalOptions(path: string[]): Promise<string[]> {
    const { code, stdout } = await runMain(['help', 'options', ...path])
    expect(code).toBe(0)
    return [...stdout.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]!)
  }

  it.each([
    [
      ['chambers', 'list'],
      ['--profile', '--sandbox', '--output', '--json', '--fields', '--jq'],
    ],
    [
      ['members', 'add'],
      ['--sandbox', '--output', '--jq', '--no-input', '--yes'],
    ],
    [['api'], ['--sandbox', '--jq']],
    [['login'], ['--profile', '--base-url', '--no-input']],
  ])('%j lists the global options that apply to it', async (path, expected) => {
    const listed = await globalOptions(path)
    for (const flag of expected) expect(listed).toContain(flag)
    expect(listed).not.toContain('--version')
  })

  it.each([
    [['sandbox'], ['--jq', '--fields', '--output', '--profile', '--sandbox', '--yes']],
    [['login'], ['--json', '--jq', '--fields', '--sandbox']],
    [['export'], ['--jq', '--fields', '--wide']],
    [['logout'], ['--json', '--base-url', '--timeout']],
  ])('%j leaves out the global options that do not apply', async (path, absent) => {
    const listed = await globalOptions(path)
    expect(listed.length).toBeGreaterThan(0)
    for (const flag of absent) expect(listed).not.toContain(flag)
  })

  it('the root help lists the commands and topics, the global options behind help options', async () => {
    const { stdout } = await runMain(['--help'])
    const commands = stdout.indexOf('\nCommands:\n')
    expect(commands).toBeGreaterThan(0)
    expect(stdout.indexOf('\nHelp topics')).toBeGreaterThan(commands)
    expect(stdout).not.toContain('--profile <name>')
    expect(stdout).toContain('chamberctl help options')
    for (const topic of [
      'environment',
      'exit-codes',
      'formatting',
      'bulk',
      'fixtures',
      'credentials',
    ]) {
      expect(stdout).toMatch(new RegExp(`^  ${topic} `, 'm'))
    }
  })

  it('help options lists every global option', async () => {
    const { code, stdout } = await runMain(['help', 'options'])
    expect(code).toBe(0)
    for (const flag of ['--profile', '--base-url', '--sandbox', '--output', '--jq', '--quiet']) {
      expect(stdout).toContain(flag)
    }
  })

  it('help environment names every variable chamberctl reads', async () => {
    const { code, stdout, stderr } = await runMain(['help', 'environment'])
    expect(code).toBe(0)
    expect(stderr).toBe('')
    for (const name of [
      'CHAMBERCTL_TOKEN',
      'CHAMBERCTL_CLIENT_ID',
      'CHAMBERCTL_CLIENT_SECRET',
      'CHAMBERCTL_BASE_URL',
      'CHAMBERCTL_PROFILE',
      'CHAMBERCTL_SANDBOX',
      'CHAMBERCTL_CONFIG_DIR',
      'CHAMBERCTL_DEBUG',
      'CHAMBERCTL_TIMEOUT',
      'CHAMBERCTL_INSECURE_HTTP',
      'CHAMBERCTL_PAGER',
      'PAGER',
      'NO_COLOR',
      'FORCE_COLOR',
      'CI',
      'HTTPS_PROXY',
      'HTTP_PROXY',
      'NO_PROXY',
      'NODE_EXTRA_CA_CERTS',
    ]) {
      expect(stdout).toMatch(new RegExp(`\\b${name}\\b`))
    }
  })

  it('help exit-codes explains every exit code', async () => {
    const { code, stdout } = await runMain(['help', 'exit-codes'])
    expect(code).toBe(0)
    for (const exit of [0, 1, 2, 3, 4, 5, 130])
      expect(stdout).toMatch(new RegExp(`^- ${exit}: `, 'm'))
  })

  it('help reference has every command, its options and its examples', async () => {
    const { code, stdout } = await runMain(['help', 'reference'])
    expect(code).toBe(0)
    for (const path of visiblePaths().filter((p) => p.length > 0)) {
      expect(stdout).toMatch(new RegExp(`^chamberctl ${path.join(' ')}$`, 'm'))
    }
    expect(stdout).toContain('--concurrency <n>')
    expect(stdout).toContain('chamberctl seed fixture.yaml --dry-run --offline')
  })

  it.each(visiblePaths().map((path) => [path.join(' ') || '(program)', path]))(
    '%s: the topics its help points to exist',
    async (_name, path) => {
      const help = (await runMain([...path, '--help'])).stdout
      const named = [...help.matchAll(/^ {2}chamberctl help (\S+)$/gm)].map((m) => m[1]!)
      const pages = [...Object.keys(TOPICS), 'options', 'reference']
      for (const topic of named) expect(pages).toContain(topic)
    },
  )

  it('members add points to the bulk topic', async () => {
    const help = (await runMain(['members', 'add', '--help'])).stdout
    expect(help).toMatch(/^Learn more:\n {2}chamberctl help bulk$/m)
  })

  it('a command with a manual page shows it in its help', async () => {
    const { stdout } = await runMain(['api', '--help'])
    expect(stdout).toContain('Paths only: a full')
  })

  it.each([['chambers'], ['members'], ['events'], ['auth']])(
    '%s alone prints its help on stdout and exits 0',
    async (noun) => {
      const { code, stdout, stderr } = await runMain([noun])
      expect(code).toBe(0)
      expect(stderr).toBe('')
      expect(stdout).toMatch(new RegExp(`^Usage: chamberctl ${noun} `))
      expect(stdout).toMatch(/^Commands:$/m)
    },
  )

  it('a noun with a word that is none of its verbs is a usage error', async () => {
    const { code, stdout, stderr } = await runMain(['chambers', 'lsit'])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe('error: unknown command "chambers lsit" (did you mean list?)\n')
  })

  it('shows every default: --per-page, --page, --output, --concurrency, --timeout', async () => {
    const list = (await runMain(['members', 'list', '--help'])).stdout
    expect(list).toMatch(/--per-page <n> +records per page, 1\.\.100 \(default: 20\)/)
    expect(list).toMatch(/--page <n> +fetch this page \(default: 1\)/)
    const globals = (await runMain(['help', 'options', 'members', 'list'])).stdout
    expect(globals).toMatch(/\(default:\s+table on a terminal, tsv in a pipe\)/)
    expect(globals).toMatch(
      /--timeout <seconds>[^(]+\(env\s+CHAMBERCTL_TIMEOUT\)\s+\(default:\s+30\)/,
    )
    const add = (await runMain(['members', 'add', '--help'])).stdout
    expect(add).toMatch(/--concurrency <n>[^(]+\(default:\s+8\)/)
  })

  it.each([
    [['--help'], 40],
    [['--help'], 60],
    [['members'], 40],
    [['members', 'add', '--help'], 40],
    [['members', 'add', '--help'], 60],
    [['help', 'options'], 40],
    [['help', 'options'], 60],
  ])('%j fits a terminal %i columns wide', async (args, width) => {
    const { stdout } = await runMain(args, {
      stdoutIsTTY: true,
      stdoutWidth: width,
      env: { CHAMBERCTL_PAGER: '' },
    })
    expect(stdout).toMatch(/^(?:Usage|Global options)/m)
    expect(lines(stdout).filter((line) => line.length > width)).toEqual([])
  })

  it('breaks an example command with " \\" outside quotes, so that it runs as copied', async () => {
    const at = async (width: number) =>
      (await runMain(['members', 'add', '--help'], { stdoutIsTTY: true, stdoutWidth: width }))
        .stdout
    const commands = (help: string) =>
      help
        .split('\nExamples:\n')[1]!
        .replace(/ \\\n\s*/g, ' ')
        .split('\n')
        .filter((line) => line.startsWith('  $ '))
    expect(commands(await at(40))).toEqual(commands(await at(200)))
    expect(await at(40)).toContain(
      '  $ chamberctl members add ch_0001 \\\n    --name "Ada Lovelace" \\\n',
    )
  })

  it('chamberctl alone prints the help on stdout and exits 0', async () => {
    const { code, stdout, stderr } = await runMain([])
    expect(code).toBe(0)
    expect(stderr).toBe('')
    expect(stdout).toMatch(/^Usage: chamberctl /m)
    expect(stdout).toMatch(/^Examples:$/m)
  })

  it('help <command...> prints that command’s help on stdout', async () => {
    const { code, stdout } = await runMain(['help', 'members', 'add'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Usage: chamberctl members add /)
  })

  it.each([
    [
      ['help', 'nosuch'],
      'error: unknown command "nosuch"; commands: login, logout, auth, chambers',
    ],
    [['help', 'chambers', 'lsit'], 'error: unknown command "chambers lsit" (did you mean list?)'],
    [['help', 'membres'], 'error: unknown command "membres" (did you mean members?)'],
  ])('help %j is a usage error with suggestions', async (args, message) => {
    const { code, stdout, stderr } = await runMain(args)
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr.startsWith(message), stderr).toBe(true)
    expect(lines(stderr)).toHaveLength(1)
  })
})

describe('aliases', () => {
  it.each([
    [
      ['chambers', 'ls'],
      ['chambers', 'list'],
    ],
    [
      ['members', 'ls', 'ch_0001'],
      ['members', 'list', 'ch_0001'],
    ],
    [
      ['events', 'ls', 'ch_0001'],
      ['events', 'list', 'ch_0001'],
    ],
    [
      ['chambers', 'show', 'ch_0001'],
      ['chambers', 'get', 'ch_0001'],
    ],
    [
      ['chambers', 'view', 'ch_0001'],
      ['chambers', 'get', 'ch_0001'],
    ],
  ])('%j is %j', async (alias, command) => {
    const viaAlias = await run(alias)
    expect(viaAlias.code).toBe(0)
    expect(viaAlias.stdout).not.toBe('')
    expect(viaAlias).toEqual(await run(command))
  })
})

describe('fields', () => {
  it.each(Object.entries(RESOURCES))('fields %s prints one name a line', async (name, resource) => {
    const { code, stdout } = await runMain(['fields', name])
    expect(code).toBe(0)
    expect(stdout).toBe(`${fieldNames(resource).join('\n')}\n`)
  })

  it('lists nested fields as dotted paths', async () => {
    expect(lines((await runMain(['fields', 'chambers'])).stdout)).toContain('address.city')
  })

  it.each([
    [['chambers', 'list', '--fields', 'id,nmae'], 'chambers have no field "nmae"'],
    [
      ['members', 'list', 'ch_0001', '--fields', 'id,city,zip'],
      'members have no fields "city", "zip"',
    ],
    [['events', 'list', 'ch_0001', '--fields', 'name'], 'events have no field "name"'],
    [
      ['chambers', 'get', 'ch_0001', '--fields', 'address.town'],
      'chambers have no field "address.town"',
    ],
  ])('%j: exit 2 listing the known fields, nothing sent', async (args, message) => {
    sandbox().reset()
    const { code, stdout, stderr } = await run(args)
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toContain(`error: --fields: ${message}; known: id, `)
    expect(sandbox().requests).toEqual([])
  })

  it('accepts every listed field', async () => {
    const { code } = await run([
      'chambers',
      'list',
      '--fields',
      fieldNames(RESOURCES.chambers).join(','),
    ])
    expect(code).toBe(0)
  })
})
