// Help for a terminal: the manual's Markdown (topics, `help reference`, the commands' manual
// pages) rendered and wrapped to the terminal's width, plain text in a pipe, long help through
// the pager under the pager's rules, command pages without the global options, examples that fit
// 80 columns.
import type { Command } from 'commander'
import stringWidth from 'string-width'
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it } from 'vitest'
import { longOf } from '../../src/cmdutil/manual.js'
import { createContext, main } from '../../src/cli/main.js'
import { TOPICS } from '../../src/cli/tree.js'
import { allCommands } from '../../src/cli/manual.js'
import { createProgram } from '../../src/cli/program.js'
import { runMain } from '../helpers/run-main.js'
import { lines } from '../helpers/output.js'
import { createTestIO } from '../helpers/test-io.js'

const program = createProgram(createContext(createTestIO().io))
const path = (command: Command) => {
  const names: string[] = []
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name())
  return names
}
const commands = allCommands(program)
const manuals = commands.filter((c) => longOf(c) !== undefined).map(path)

// Every page of the manual written in Markdown, as the command line that prints it.
const PAGES: string[][] = [
  ...Object.keys(TOPICS).map((topic) => ['help', topic]),
  ['help', 'reference'],
  ...manuals.map((p) => [...p, '--help']),
]

// What a reader sees of a line: no colours, and what it takes of the screen.
const cells = (line: string) => stringWidth(stripVTControlCharacters(line))

// Markdown a renderer should have consumed: a heading's `#`, a code span's backtick, a fence.
function rawMarkdown(text: string): string[] {
  return lines(stripVTControlCharacters(text)).filter(
    (line) => /^#{1,6} /.test(line) || line.includes('`') || /^\s*\*\*|\*\*\s*$/.test(line),
  )
}

describe('help rendered for a terminal', () => {
  it.each([40, 60, 80, 120])('every page fits %i columns, with no raw Markdown', async (width) => {
    for (const args of PAGES) {
      const { code, stdout } = await runMain(args, { stdoutIsTTY: true, stdoutWidth: width })
      expect(code, args.join(' ')).toBe(0)
      // Examples too: their command lines are continued with ` \`, but for a single word (a path)
      // longer than the line, which cannot be broken.
      const wide = lines(stdout).filter((line) => cells(line) > width && !/^ {4}\S+$/.test(line))
      expect(wide, args.join(' ')).toEqual([])
      expect(rawMarkdown(stdout), args.join(' ')).toEqual([])
    }
  })

  it('is styled on a terminal, and not with NO_COLOR', async () => {
    const styled = await runMain(['help', 'environment'], { stdoutIsTTY: true, stdoutWidth: 80 })
    expect(styled.stdout).toContain('\u001b[')
    const plain = await runMain(['help', 'environment'], {
      stdoutIsTTY: true,
      stdoutWidth: 80,
      env: { NO_COLOR: '1' },
    })
    expect(plain.stdout).not.toContain('\u001b')
    expect(plain.stdout).toMatch(/^- CHAMBERCTL_TOKEN: a bearer token/m)
  })

  it('is plain text in a pipe: no escape, no raw Markdown, wrapped at 80', async () => {
    for (const args of PAGES) {
      const { code, stdout } = await runMain(args)
      expect(code, args.join(' ')).toBe(0)
      expect(stdout, args.join(' ')).not.toContain('\u001b')
      expect(rawMarkdown(stdout), args.join(' ')).toEqual([])
      const wide = lines(stdout).filter((line) => cells(line) > 80)
      expect(wide, args.join(' ')).toEqual([])
    }
  })

  it('help reference ends with the last command, not a bare fence', async () => {
    const { stdout } = await runMain(['help', 'reference'])
    expect(stdout.trimEnd()).not.toMatch(/```$/)
    expect(stdout).toMatch(/^chamberctl members add$/m)
  })
})

describe('command pages', () => {
  it('list only the options the command defines, and one line for the global ones', async () => {
    const { stdout } = await runMain(['members', 'add', '--help'])
    expect(stdout).not.toContain('Global Options:')
    expect(stdout).not.toContain('--profile')
    expect(stdout).toContain('--concurrency <n>')
    expect(stdout).toMatch(/^Global options: chamberctl help options members add$/m)
  })

  it('a noun that only groups its verbs names no global options', async () => {
    const { stdout } = await runMain(['members', '--help'])
    expect(stdout).not.toContain('Global options')
  })

  it.each([
    [
      ['members', 'add'],
      ['--sandbox', '--output', '--jq', '--no-input', '--yes', '--quiet'],
    ],
    [['login'], ['--profile', '--base-url', '--no-input']],
  ])('help options %j lists the global options that apply to it', async (command, flags) => {
    const { code, stdout } = await runMain(['help', 'options', ...command])
    expect(code).toBe(0)
    for (const flag of flags) expect(stdout).toContain(flag)
  })

  it.each([
    [['sandbox'], ['--jq', '--fields', '--profile', '--yes']],
    [['logout'], ['--json', '--base-url', '--timeout']],
  ])('help options %j leaves out those that do not apply', async (command, flags) => {
    const { stdout } = await runMain(['help', 'options', ...command])
    expect(stdout).toMatch(/^Global options that chamberctl /)
    for (const flag of flags) expect(stdout).not.toContain(`${flag} `)
  })

  it('help options of a command that takes none is a usage error', async () => {
    const { code, stderr } = await runMain(['help', 'options', 'members'])
    expect(code).toBe(2)
    expect(stderr).toBe('error: chamberctl members takes no global options\n')
  })

  it('every example line fits 80 columns as printed', async () => {
    for (const command of [[], ...commands.map(path)]) {
      const { stdout } = await runMain([...command, '--help'])
      const examples = stdout.split('\nExamples:\n')[1] ?? ''
      const wide = lines(examples).filter((line) => cells(line) > 80)
      expect(wide, command.join(' ')).toEqual([])
    }
  })
})

describe('long help and the pager', () => {
  // A terminal of `rows` rows whose pager is recorded instead of spawned.
  async function onTerminal(args: string[], env: NodeJS.ProcessEnv, rows = 24) {
    const test = createTestIO({ stdoutIsTTY: true, stderrIsTTY: true, stdoutWidth: 80, env })
    const started: string[] = []
    let paged = ''
    const io = {
      ...test.io,
      stdoutRows: rows,
      async startPager(command: string) {
        started.push(command)
        const { Writable } = await import('node:stream')
        const input = new Writable({
          write(chunk: Buffer, _encoding, callback) {
            paged += chunk.toString('utf8')
            callback()
          },
        })
        return { input, closed: new Promise<void>((resolve) => input.on('finish', resolve)) }
      },
    }
    const code = await main(['node', 'chamberctl', ...args], io)
    return { code, started, paged, stdout: test.stdout() }
  }

  it.each([
    [['help', 'reference']],
    [['help', 'bulk']],
    [['sandbox', '--help']],
    [['help', 'sandbox']],
  ])('%j longer than the terminal goes through the pager', async (args) => {
    const { code, started, paged, stdout } = await onTerminal(args, { TERM: 'xterm' })
    expect(code).toBe(0)
    expect(started).toEqual(['less -FRX'])
    expect(paged).toMatch(/\S/)
    expect(stdout).toBe('')
  })

  it.each([
    ['TERM is dumb', ['help', 'reference'], { TERM: 'dumb' }],
    ['TERM is unset', ['help', 'reference'], {}],
    ['PAGER is cat', ['help', 'reference'], { TERM: 'xterm', PAGER: 'cat' }],
    ['CHAMBERCTL_PAGER is empty', ['help', 'reference'], { TERM: 'xterm', CHAMBERCTL_PAGER: '' }],
    ['--no-pager', ['help', 'reference', '--no-pager'], { TERM: 'xterm' }],
    ['--no-pager with --help', ['sandbox', '--help', '--no-pager'], { TERM: 'xterm' }],
  ])('no pager when %s', async (_why, args, env) => {
    const { code, started, stdout } = await onTerminal(args, env)
    expect(code).toBe(0)
    expect(started).toEqual([])
    expect(stdout).toMatch(/\S/)
  })

  it('no pager when the help fits the terminal', async () => {
    const { started, stdout } = await onTerminal(['members', '--help'], { TERM: 'xterm' }, 200)
    expect(started).toEqual([])
    expect(stdout).toMatch(/^Usage: chamberctl members/)
  })
})
