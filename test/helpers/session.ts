// For the tests of prompts and writes: a reader that waits for prompts one after the other on a
// session's output (run-main.ts's startSession, or a pseudo-terminal), the keys to answer them,
// and a client that reads what the sandbox really holds.
import { stripVTControlCharacters } from 'node:util'
import type { Sandbox } from '../../src/sandbox/server.js'
import { ApiClient } from '../sandbox/helpers.js'
import type { Rec } from '../sandbox/helpers.js'
import type { RunResult, Session } from './run-main.js'
import { until } from './output.js'

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
