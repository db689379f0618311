// Help that teaches: examples on every command, the global options in a subcommand's help, every
// default shown, `chamberctl` alone and `help <command...>`, the aliases, and `fields`.
import type { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { RESOURCE_FIELDS } from '../../src/api/fields.js'
import { createContext } from '../../src/cli/main.js'
import { createProgram } from '../../src/cli/program.js'
import { lines, runMain, useCommands, useSandbox } from '../helpers/cli.js'
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
    '%s: 2 to 4 examples that run chamberctl, and the global options',
    async (_name, path) => {
      const { code, stdout, stderr } = await runMain([...path, '--help'])
      expect(code).toBe(0)
      expect(stderr).toBe('')
      const examples = examplesOf(stdout)
      expect(examples.length, stdout).toBeGreaterThanOrEqual(2)
      expect(examples.length, stdout).toBeLessThanOrEqual(4)
      // Each example runs a command that exists, down to a verb.
      for (const example of examples) expect(commandWords(example), example).toBeGreaterThan(0)
      if (path.length > 0) {
        expect(stdout).toMatch(/^Global Options:$/m)
        for (const flag of [
          '-o, --output <format>',
          '--json',
          '--fields <list>',
          '--sandbox',
          '--wide',
        ]) {
          expect(stdout).toContain(flag)
        }
      }
    },
  )

  it('shows every default: --per-page, --page, --output, --concurrency, --timeout', async () => {
    const list = (await runMain(['members', 'list', '--help'])).stdout
    expect(list).toMatch(/--per-page <n> +records per page, 1\.\.100 \(default: 20\)/)
    expect(list).toMatch(/--page <n> +fetch this page \(default: 1\)/)
    expect(list).toMatch(/\(default:\s+table on a terminal, tsv in a pipe\)/)
    expect(list).toMatch(/--timeout <seconds>[^(]+\(env\s+CHAMBERCTL_TIMEOUT\)\s+\(default:\s+30\)/)
    const add = (await runMain(['members', 'add', '--help'])).stdout
    expect(add).toMatch(/--concurrency <n>[^(]+\(default:\s+8\)/)
  })

  it('fits the terminal it is shown in', async () => {
    const { stdout } = await runMain(['members', 'add', '--help'], {
      stdoutIsTTY: true,
      stdoutWidth: 60,
    })
    // Example lines are command lines to copy: they are never wrapped.
    const prose = lines(stdout).filter((line) => !line.startsWith('  $ '))
    expect(prose.filter((line) => line.length > 60)).toEqual([])
  })

  it('chamberctl alone prints the help on stdout and exits 0', async () => {
    const { code, stdout, stderr } = await runMain([])
    expect(code).toBe(0)
    expect(stderr).toBe('')
    expect(stdout).toMatch(/^Usage: chamberctl /)
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
  it.each(Object.entries(RESOURCE_FIELDS))(
    'fields %s prints one name a line',
    async (name, known) => {
      const { code, stdout } = await runMain(['fields', name])
      expect(code).toBe(0)
      expect(stdout).toBe(`${known.join('\n')}\n`)
    },
  )

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
    const { code } = await run(['chambers', 'list', '--fields', RESOURCE_FIELDS.chambers.join(',')])
    expect(code).toBe(0)
  })
})
