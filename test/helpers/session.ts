// For the write-command tests: an in-process run whose stdin stays open until the test ends it,
// with Ctrl-C (the test IO's interrupt()), a hook on every stdout write, and a reader that waits
// for prompts one after the other on the captured stderr; plus a client that reads what the
// sandbox really holds.
import { PassThrough, Writable } from 'node:stream'
import { stripVTControlCharacters } from 'node:util'
import { main } from '../../src/cli/main.js'
import type { StopReason } from '../../src/io/streams.js'
import type { Sandbox } from '../../src/sandbox/server.js'
import { ApiClient } from '../sandbox/helpers.js'
import type { Rec } from '../sandbox/helpers.js'
import type { RunResult } from './cli.js'
import { until } from './cli.js'
import { asTerminal, createTestIO } from './test-io.js'

export type SessionOptions = {
  env: NodeJS.ProcessEnv
  stdinIsTTY?: boolean
  stdoutIsTTY?: boolean
  stderrIsTTY?: boolean
  stdoutWidth?: number
  // Called with each chunk the command writes to stdout, as it writes it.
  onStdout?: (chunk: string) => void
  // stdout and stderr into one log as well, in the order they were written, as on a terminal.
  combined?: boolean
}

export type Session = {
  // Never ended unless the test ends it: a command that reads it would wait forever.
  stdin: PassThrough
  stdout(): string
  stderr(): string
  // stdout and stderr interleaved (only with `combined`).
  screen(): string
  // Ctrl-C by default, or another reason to stop (SIGTERM, SIGHUP, a closed stdout).
  interrupt(reason?: StopReason): void
  done: Promise<RunResult>
}

function tee(target: Writable, ...listeners: ((chunk: string) => void)[]): Writable {
  return new Writable({
    // Passed on at once, so that what is written directly and what is teed keep their order.
    write(chunk: Buffer, _encoding, callback) {
      for (const listener of listeners) listener(chunk.toString())
      target.write(chunk)
      callback()
    },
  })
}

export function startSession(args: string[], options: SessionOptions): Session {
  const stdin = new PassThrough()
  const test = createTestIO({
    stdinIsTTY: options.stdinIsTTY,
    stdoutIsTTY: options.stdoutIsTTY,
    stderrIsTTY: options.stderrIsTTY,
    stdoutWidth: options.stdoutWidth,
    env: options.env,
  })
  let screen = ''
  const record = (chunk: string) => {
    if (options.combined) screen += chunk
  }
  const io = {
    ...test.io,
    in: stdin,
    out: asTerminal(
      tee(test.io.out, record, (chunk) => options.onStdout?.(chunk)),
      test.io.stdoutIsTTY,
      options.stdoutWidth,
    ),
    err: asTerminal(tee(test.io.err, record), test.io.stderrIsTTY, options.stdoutWidth),
  }
  const done = main(['node', 'chamberctl', ...args], io).then((code) => ({
    code,
    stdout: test.stdout(),
    stderr: test.stderr(),
  }))
  return {
    stdin,
    stdout: test.stdout,
    stderr: test.stderr,
    screen: () => screen,
    interrupt: test.interrupt,
    done,
  }
}

// Fails instead of hanging when the command does not finish by itself.
export async function finishes(session: Session, timeoutMs = 5_000): Promise<RunResult> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`still running after ${timeoutMs} ms`)), timeoutMs)
  })
  try {
    return await Promise.race([session.done, deadline])
  } finally {
    clearTimeout(timer)
  }
}

// Reads a prompt session's output without colours and cursor moves, each wait starting where
// the previous match ended, so that an earlier prompt never answers for a later one.
export class Prompts {
  private seen = 0

  constructor(
    private readonly read: () => string,
    private readonly input: { write(keys: string): unknown },
    private readonly timeoutMs = 5_000,
  ) {}

  text(): string {
    return stripVTControlCharacters(this.read())
  }

  // The first match of `pattern` after the previous one; returns the text in between too.
  async next(pattern: RegExp): Promise<{ match: string; before: string }> {
    const start = this.seen
    const found = await until(() => this.text().slice(start), pattern, this.timeoutMs)
    this.seen = start + found.index! + found[0].length
    return { match: found[0], before: this.text().slice(start, start + found.index!) }
  }

  // Waits for `prompt`, then types `keys`.
  async answer(prompt: RegExp, keys: string): Promise<void> {
    await this.next(prompt)
    this.input.write(keys)
  }
}

export const KEY = {
  enter: '\r',
  down: '\u001b[B',
  ctrlC: '\u0003',
  // Deletes the line typed so far (readline's Ctrl-U).
  clearLine: '\u0015',
} as const

// What the sandbox holds, read over HTTP with a token of its own.
export class SandboxReader {
  readonly api: ApiClient

  constructor(sandbox: Sandbox) {
    this.api = new ApiClient(sandbox, 'v2')
  }

  members(chamberId: string): Promise<Rec[]> {
    return this.api.listAll(`/chambers/${chamberId}/members`)
  }

  chambers(): Promise<Rec[]> {
    return this.api.listAll('/chambers')
  }

  async chamber(id: string): Promise<Rec> {
    const reply = await this.api.get(`/chambers/${id}`)
    if (reply.status !== 200) throw new Error(`GET /chambers/${id} answered ${reply.status}`)
    return reply.body
  }

  // An hq with no members, so that a test sees only the members it added.
  async emptyChamber(name: string): Promise<string> {
    const chamber = await this.api.create('/chambers', { name, type: 'hq', address: {} })
    return chamber.id
  }
}
