// Shared by the sandbox tests: a sandbox on an ephemeral port with a fake clock, and a small
// client for one API version that speaks real HTTP over loopback.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect } from 'vitest'
import { API_VERSIONS } from '../../src/api/schemas.js'
import type { ApiVersion, ListEnvelope, TokenResponse } from '../../src/api/schemas.js'
import { startSandbox } from '../../src/sandbox/server.js'
import type { Sandbox, SandboxOptions } from '../../src/sandbox/server.js'
import {
  apiErrorBodySchema,
  notFoundErrorSchema,
  oauthErrorSchema,
  validationErrorSchema,
} from './error-bodies.js'
import type { ApiErrorBody } from './error-bodies.js'

export const VERSIONS = API_VERSIONS
export const DAY = 86_400_000
// The fake clock starts here; demo event dates are anchored on this day.
export const START = Date.UTC(2025, 5, 18, 10, 30, 0)
export { DEMO_LARGE_CHAMBER_ID as BIG_CHAMBER } from '../../src/sandbox/demo-data.js'

export type Clock = { now: () => number; advance: (ms: number) => void }

export function fakeClock(start = START): Clock {
  let current = start
  return {
    now: () => current,
    advance: (ms) => {
      current += ms
    },
  }
}

// `random` for fault injection: hands out the given values in turn, forever.
export function cycle(...values: number[]): () => number {
  let next = 0
  return () => values[next++ % values.length]!
}

export type Rec = { id: string; [field: string]: unknown }
// The shared schemas' shapes: the sandbox answers with exactly what the client parses.
export type ErrorBody = ApiErrorBody
export type TokenBody = TokenResponse
export type Reply<T> = { status: number; headers: Headers; body: T }
export type Query = Record<string, string | number>

export type SendOptions = {
  query?: Query
  // A bearer token; null sends none. By default, a token of the client's own version.
  token?: string | null
  // Sent as JSON with content-type application/json.
  json?: unknown
  // Sent as is, with only the content type given in headers.
  body?: string | Uint8Array | ReadableStream<Uint8Array>
  headers?: Record<string, string>
}

export class ApiClient {
  private token: Promise<string> | undefined

  constructor(
    readonly sandbox: Sandbox,
    readonly version: ApiVersion,
  ) {}

  url(path: string, query: Query = {}): string {
    const entries = Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])
    const suffix = String(new URLSearchParams(entries))
    return `${this.sandbox.baseUrl(this.version)}${path}${suffix ? `?${suffix}` : ''}`
  }

  // One token per client, from POST /auth/token with a JSON body.
  accessToken(): Promise<string> {
    this.token ??= this.post<TokenBody>('/auth/token', credentialsBody(this.sandbox), {
      token: null,
    }).then((reply) => {
      if (reply.status !== 200) throw new Error(`token request answered ${reply.status}`)
      return reply.body.access_token
    })
    return this.token
  }

  send<T>(method: string, path: string, options: SendOptions = {}): Promise<Reply<T>> {
    return this.request<T>(method, this.url(path, options.query), options)
  }

  // GET of the Location a reply names, resolved the way a client resolves it.
  follow<T = Rec>(reply: Reply<unknown>): Promise<Reply<T>> {
    const location = reply.headers.get('location')
    if (!location) throw new Error(`no Location header in a ${reply.status} reply`)
    return this.request<T>('GET', new URL(location, this.url('/')).href)
  }

  private async request<T>(
    method: string,
    url: string,
    options: SendOptions = {},
  ): Promise<Reply<T>> {
    const headers: Record<string, string> = {}
    const token = options.token === undefined ? await this.accessToken() : options.token
    if (token !== null) headers.authorization = `Bearer ${token}`
    let body = options.body
    if (options.json !== undefined) {
      body = JSON.stringify(options.json)
      headers['content-type'] = 'application/json'
    }
    Object.assign(headers, options.headers)
    const response = await fetch(url, {
      method,
      headers,
      body,
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    })
    const text = await response.text()
    return {
      status: response.status,
      headers: response.headers,
      body: (text === '' ? undefined : JSON.parse(text)) as T,
    }
  }

  get<T = Rec>(path: string, query?: Query, options: SendOptions = {}): Promise<Reply<T>> {
    return this.send<T>('GET', path, { ...options, query })
  }

  list<T = Rec>(path: string, query?: Query): Promise<Reply<ListEnvelope<T>>> {
    return this.get<ListEnvelope<T>>(path, query)
  }

  post<T = Rec>(path: string, json: unknown, options: SendOptions = {}): Promise<Reply<T>> {
    return this.send<T>('POST', path, { ...options, json })
  }

  // A create that has to succeed: the record its 201 answers.
  async create(path: string, json: unknown): Promise<Rec> {
    const reply = await this.post(path, json)
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    return reply.body
  }

  // Every record of a list, page by page at the largest page size.
  async listAll<T = Rec>(path: string, query: Query = {}): Promise<T[]> {
    const records: T[] = []
    for (let page = 1; ; page++) {
      const reply = await this.list<T>(path, { ...query, page, per_page: 100 })
      if (reply.status !== 200) {
        throw new Error(`GET ${path} answered ${reply.status}: ${JSON.stringify(reply.body)}`)
      }
      records.push(...reply.body.data)
      if (reply.body.data.length === 0 || records.length >= reply.body.meta.total) return records
    }
  }

  async total(path: string): Promise<number> {
    const reply = await this.list(path, { per_page: 1 })
    expect(reply.status).toBe(200)
    return reply.body.meta.total
  }
}

export type TestSandbox = {
  sandbox: Sandbox
  clock: Clock
  api(version: ApiVersion): ApiClient
  close(): Promise<void>
}

export async function openSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const clock = fakeClock()
  const sandbox = await startSandbox({ port: 0, now: clock.now, ...options })
  const clients = { v1: new ApiClient(sandbox, 'v1'), v2: new ApiClient(sandbox, 'v2') }
  return { sandbox, clock, api: (version) => clients[version], close: () => sandbox.close() }
}

// For a test that needs a sandbox of its own (a clock it advances, options of its own).
export async function withSandbox<T>(
  options: SandboxOptions,
  test: (env: TestSandbox) => Promise<T>,
): Promise<T> {
  const env = await openSandbox(options)
  try {
    return await test(env)
  } finally {
    await env.close()
  }
}

export function credentialsBody(sandbox: Sandbox): Record<string, string> {
  return {
    client_id: sandbox.credentials.clientId,
    client_secret: sandbox.credentials.clientSecret,
    grant_type: 'client_credentials',
  }
}

// RFC 6749 §2.3.1: each part is form-urlencoded before they are joined.
export function basicAuth(clientId: string, clientSecret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+')
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`
}

// A fresh temporary directory for each test of the file or describe that calls this.
export function useTempDir(): () => string {
  let dir: string | undefined
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chamberctl-sandbox-'))
  })
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  })
  return () => dir!
}

// -- expectations --------------------------------------------------------------------------------

export function ids(records: readonly { id: string }[]): string[] {
  return records.map((record) => record.id)
}

// The order a sort parameter asks for, computed here: timestamps by instant, text by an English
// collation ignoring case, ties in the original order.
export function sortedBy<T extends Rec>(records: readonly T[], sort: string): T[] {
  const field = sort.replace(/^-/, '')
  const direction = sort.startsWith('-') ? -1 : 1
  const compare = field.endsWith('_at')
    ? (a: T, b: T) => Date.parse(String(a[field])) - Date.parse(String(b[field]))
    : (a: T, b: T) =>
        String(a[field]).localeCompare(String(b[field]), 'en', { sensitivity: 'base' })
  return [...records].sort((a, b) => direction * compare(a, b))
}

export function expectFieldError(reply: Reply<unknown>, field: string): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(422)
  const body = validationErrorSchema.parse(reply.body)
  expect(body.fields[field], `fields: ${JSON.stringify(body.fields)}`).toEqual(
    expect.arrayContaining([expect.any(String)]),
  )
}

export function expectError(reply: Reply<unknown>, status: number, mentions?: RegExp): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status)
  const body = apiErrorBodySchema.parse(reply.body)
  if (mentions) expect(body.error).toMatch(mentions)
}

// 404 with exactly {error}, as the spec shows for an unknown chamber.
export function expectNotFound(reply: Reply<unknown>, mentions: RegExp): void {
  expect(reply.status).toBe(404)
  expect(notFoundErrorSchema.parse(reply.body)).toEqual({ error: expect.stringMatching(mentions) })
}

export function expectInvalidToken(reply: Reply<unknown>, mentions = /\w/): void {
  expect(reply.status).toBe(401)
  expect(oauthErrorSchema.parse(reply.body)).toEqual({
    error: 'invalid_token',
    error_description: expect.stringMatching(mentions),
  })
  expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer\b/)
}
