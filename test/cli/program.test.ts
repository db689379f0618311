// The tree main() builds: only the command the arguments name, global options and their values
// skipped; everything when the arguments name no command it knows (help, a typo, completion).
import { describe, expect, it } from 'vitest'
import { TOP_LEVEL_COMMANDS } from '../../src/cli/commands.js'
import { createContext } from '../../src/cli/main.js'
import { createProgram } from '../../src/cli/program.js'
import { createTestIO } from '../helpers/test-io.js'

// The commands built besides `help`, which is always there.
function commandsBuiltFor(args: string[]): string[] {
  const program = createProgram(createContext(createTestIO().io), ['node', 'chamberctl', ...args])
  return program.commands.map((command) => command.name()).filter((name) => name !== 'help')
}

const ALL = commandsBuiltFor([])

describe('createProgram with the arguments', () => {
  it('builds every command without arguments, and without them given', () => {
    expect(ALL).toEqual(
      expect.arrayContaining([
        'login',
        'chambers',
        'members',
        'seed',
        'fields',
        'completion',
        '__complete',
      ]),
    )
    const program = createProgram(createContext(createTestIO().io))
    expect(program.commands.map((command) => command.name())).toEqual([...ALL, 'help'])
  })

  it('has the top-level commands the launcher keys its code cache by, and no other', () => {
    expect([...ALL, 'help'].sort()).toEqual([...TOP_LEVEL_COMMANDS].sort())
  })

  it('builds only the noun that runs', () => {
    expect(commandsBuiltFor(['chambers', 'list', '--json'])).toEqual(['chambers'])
    expect(commandsBuiltFor(['members', 'add', 'ch_1'])).toEqual(['members'])
    expect(commandsBuiltFor(['sandbox', '--port', '0'])).toEqual(['sandbox'])
  })

  it('builds login, logout and auth together: one noun registers the three', () => {
    expect(commandsBuiltFor(['logout'])).toEqual(['login', 'logout', 'auth'])
  })

  it('skips global options and their values, in both spellings', () => {
    expect(commandsBuiltFor(['--profile', 'chambers', 'members', 'list', 'x'])).toEqual(['members'])
    expect(commandsBuiltFor(['--profile=members', '-o', 'json', '--debug', 'events'])).toEqual([
      'events',
    ])
  })

  it('builds everything for help, a typo, an unknown option and completion', () => {
    for (const args of [['--help'], ['chambrs'], ['--nope', 'chambers'], ['completion', 'bash']]) {
      expect(commandsBuiltFor(args)).toEqual(ALL)
    }
  })
})
