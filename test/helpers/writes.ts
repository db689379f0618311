// What the tests of the write verbs (chambers create, members add) share: one sandbox for the
// file on the clock NOW, its request log cleared before each test, a reader of what it holds,
// ways to run the verbs in a pipe or in a session on a (pretend) terminal, and readers of what
// they print.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import type { Command } from 'commander'
import { beforeEach, expect } from 'vitest'
import { createContext } from '../../src/cli/main.js'
import { createProgram } from '../../src/cli/program.js'
import { writesOf } from '../../src/cmdutil/manual.js'
import { createTestIO } from './test-io.js'
import { credentialsEnv, useTempDirs } from './sandbox.js'
import { useDemoSandbox, startSession } from './run-main.js'
import type { RunOptions, RunResult, SessionOptions, Session } from './run-main.js'
import type { SandboxFixture } from './sandbox.js'
import { lines } from './output.js'
import { Prompts, SandboxReader } from './session.js'

export const NOT_PROMPTING = '(not prompting: no terminal, --no-input or CI)'
export const CHAMBER_POSTS = /^\/v2\/chambers$/
export const MEMBER_POSTS = /\/members$/

const TTY = { stdinIsTTY: true, stdoutIsTTY: true, stderrIsTTY: true }
// A run on a (pretend) terminal whose stdin holds `text`, the verb's `--from-file -`.
export const stdinOnTerminal = (text: string): RunOptions => ({
  ...TTY,
  stdin: text,
  env: { NO_COLOR: '1' },
})

// The ways of running without a terminal to prompt on: each must neither prompt nor wait.
export const NO_TERMINAL: [string, string[], NodeJS.ProcessEnv, Partial<SessionOptions>][] = [
  ['--no-input', ['--no-input'], {}, TTY],
  ['CI=true', [], { CI: 'true' }, TTY],
  ['stdin not a TTY', [], {}, { stdinIsTTY: false, stdoutIsTTY: true }],
]

export function useWriteSandbox() {
  const { sandbox, demo, run, configDir } = useDemoSandbox()
  const tempDir = useTempDirs('chamberctl-write-')
  let reader: SandboxReader | undefined
  const state = () => (reader ??= new SandboxReader(sandbox().sandbox))
  beforeEach(() => sandbox().reset())

  // The environment of an in-process session: this test's config directory, the sandbox's
  // credentials, no colours (on a TTY they would be on).
  function sessionEnv(
    fixture: SandboxFixture = sandbox(),
    extra: NodeJS.ProcessEnv = {},
  ): NodeJS.ProcessEnv {
    return {
      CHAMBERCTL_CONFIG_DIR: configDir(),
      ...credentialsEnv(fixture),
      NO_COLOR: '1',
      ...extra,
    }
  }

  return {
    sandbox,
    demo,
    run,
    state,
    sessionEnv,
    // The POSTs the sandbox answered since the test began, whose path matches.
    posts(pathPattern: RegExp): string[] {
      return sandbox()
        .requests.filter((r) => r.method === 'POST' && pathPattern.test(r.path))
        .map((r) => `${r.status} ${r.path}`)
    },
    file(name: string, text: string): string {
      const target = path.join(tempDir(), name)
      writeFileSync(target, text)
      return target
    },
    createChamber(args: string[], options?: RunOptions): Promise<RunResult> {
      return run(['chambers', 'create', ...args], options)
    },
    addMembers(chamberId: string, args: string[], options?: RunOptions): Promise<RunResult> {
      return run(['members', 'add', chamberId, ...args], options)
    },
    // An empty hq made for one test; the request log starts after it.
    async emptyChamber(name: string): Promise<string> {
      const id = await state().emptyChamber(name)
      sandbox().reset()
      return id
    },
    // A session on a terminal 200 columns wide whose prompts the test answers.
    interactive(args: string[]): { session: Session; prompts: Prompts } {
      const session = startSession(args, { ...TTY, stdoutWidth: 200, env: sessionEnv() })
      return { session, prompts: new Prompts(session.stderr, session.stdin) }
    },
    // Runs with a stdin that stays open and silent: a prompt or a read would never end.
    silentSession(args: string[], env: NodeJS.ProcessEnv, options: Partial<SessionOptions>) {
      return startSession(args, { ...options, env: sessionEnv(sandbox(), env) })
    },
  }
}

// A TSV line as an object keyed by the given columns.
export function tsvRecord(stdout: string, columns: string[]): Record<string, string> {
  expect(lines(stdout)).toHaveLength(1)
  const cells = lines(stdout)[0]!.split('\t')
  expect(cells).toHaveLength(columns.length)
  return Object.fromEntries(columns.map((column, i) => [column, cells[i]!]))
}

// A record view (one record on a TTY) as an object: `key: value` lines, nested ones indented.
export function tableRecord(stdout: string): Record<string, string> {
  const record: Record<string, string> = {}
  let parent = ''
  for (const line of lines(stdout)) {
    const [, indent, key, value] = /^( *)([^:]+):\s*(.*)$/.exec(line) ?? []
    if (key === undefined) continue
    if (indent === '') parent = key
    record[indent === '' ? key : `${parent}.${key}`] = value ?? ''
  }
  return record
}

// Input rows as a file or stdin holds them.
export type Row = Record<string, string>

export function memberRows(count: number, prefix: string): Row[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `${prefix} Member ${i + 1}`,
    email: `${prefix}-${i + 1}@example.com`,
    membership_type: 'standard',
  }))
}

export function toNdjson(rows: readonly object[]): string {
  return rows.map((row) => `${JSON.stringify(row)}\n`).join('')
}

// The lines as a terminal shows them: colours and cursor moves dropped, a carriage return
// starting the line over.
export function screenLines(text: string): string[] {
  return lines(stripVTControlCharacters(text)).map((line) => line.slice(line.lastIndexOf('\r') + 1))
}

// A write verb of the command tree, as the suites of what every write verb does walk them: tagged
// with `about(command, { writes })` where it is registered.
export type WriteVerb = {
  // As typed: `members add`.
  name: string
  path: string[]
  // The resource whose declared create it runs.
  resource: string
  prompts: boolean
  // Whether its first argument is the chamber the records go into.
  underChamber: boolean
  // Whether a file is given with --from-file (else it is the verb's argument).
  fromFile: boolean
}

export function writeVerbs(program: Command = createProgram(createContext(createTestIO().io))) {
  const found: WriteVerb[] = []
  const visit = (command: Command, path: string[]) => {
    for (const sub of command.commands) {
      const at = [...path, sub.name()]
      const writes = writesOf(sub)
      if (writes) {
        found.push({
          name: at.join(' '),
          path: at,
          resource: writes.resource.name,
          prompts: writes.prompts,
          underChamber: sub.registeredArguments[0]?.name() === 'chamber-id',
          fromFile: sub.options.some((option) => option.long === '--from-file'),
        })
      }
      visit(sub, at)
    }
  }
  visit(program, [])
  return found
}

// The verb's command line reading its input from `file` (- for stdin), into chamber `parent`.
export function inputArgs(verb: WriteVerb, file: string, parent = 'ch_0001'): string[] {
  return [
    ...verb.path,
    ...(verb.underChamber ? [parent] : []),
    ...(verb.fromFile ? ['--from-file', file] : [file]),
  ]
}

// One valid record of each resource a write verb creates.
const SAMPLES: Record<string, Record<string, unknown>> = {
  chambers: { name: 'Sample Chamber', type: 'hq', address: { city: 'Kiel' } },
  members: { name: 'Sample Member', email: 'sample@example.com', membership_type: 'standard' },
}

// A verb's input of one record: the record itself, or a fixture of it for a verb that takes its
// file as its argument (seed).
export function sampleInput(verb: WriteVerb): string {
  const record = SAMPLES[verb.resource]
  if (!record) throw new Error(`no sample ${verb.resource} record in test/helpers/writes.ts`)
  return JSON.stringify(verb.fromFile ? record : { chambers: [{ key: 'sample', ...record }] })
}
