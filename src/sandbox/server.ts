// startSandbox: the local reference server of the whole API, shared by `chamberctl sandbox`, the
// embedded `--sandbox` mode and the tests.
import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as delay } from 'node:timers/promises'
import { API_VERSIONS } from '../api/schemas.js'
import type { ApiVersion } from '../api/schemas.js'
import { clientOrigin } from './address.js'
import { RequestLog, control } from './control.js'
import { corsHeaders, isPreflight, preflightHeaders } from './cors.js'
import { TokenIssuer } from './auth.js'
import type { Credentials } from './auth.js'
import {
  DEMO_LARGE_CHAMBER_DOMAIN,
  DEMO_LARGE_CHAMBER_ID,
  demoDataset,
  demoMember,
} from './demo-data.js'
import { emptyDataset } from './demo-data.js'
import { HttpError, notFound, sendJson } from './http.js'
import { isTokenRoute, route } from './routes.js'
import type { Answer, RouteContext } from './routes.js'
import { DataFileError, Store } from './store.js'

export const DEFAULT_CREDENTIALS: Credentials = {
  clientId: 'sandbox-client',
  clientSecret: 'sandbox-secret',
}

export type SandboxOptions = {
  host?: string
  // 0 picks a free port.
  port?: number
  // The SQLite database to use, created when it does not exist (in memory without one).
  dataFile?: string
  empty?: boolean
  // Members to add to the large demo chamber before serving, generated like the demo data.
  demoMembers?: number
  tokenTtlSeconds?: number
  clientId?: string
  clientSecret?: string
  latencyMs?: number
  // 0..1: share of requests answered 500, 503 or 429 before they are handled.
  failRate?: number
  // Refuse (422) what the spec leaves open instead of ignoring it with a Warning header.
  strict?: boolean
  now?: () => number
  random?: () => number
  onRequest?: (entry: RequestLogEntry) => void
  // An origin (https://app.example:8080) or '*': browsers on it may call the sandbox (cors.ts).
  cors?: string
}

// `warnings`: what the sandbox ignored in the request (also in the answer's Warning header).
export type RequestLogEntry = {
  method: string
  path: string
  status: number
  ms: number
  warnings: string[]
}

export type Sandbox = {
  // The origin, e.g. http://127.0.0.1:4010; the API lives under baseUrl('v1') and baseUrl('v2').
  url: string
  port: number
  baseUrl(version: ApiVersion): string
  credentials: Credentials
  close(): Promise<void>
}

const INJECTED: { status: number; headers: Record<string, string> }[] = [
  { status: 500, headers: {} },
  { status: 503, headers: { 'retry-after': '1' } },
  { status: 429, headers: { 'retry-after': '1' } },
]

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? Date.now
  const random = options.random ?? Math.random
  const credentials = {
    clientId: options.clientId ?? DEFAULT_CREDENTIALS.clientId,
    clientSecret: options.clientSecret ?? DEFAULT_CREDENTIALS.clientSecret,
  }
  const initial = () => (options.empty ? emptyDataset() : demoDataset(now()))
  const store = Store.open({ path: options.dataFile, initial })
  try {
    if (options.demoMembers) addDemoMembers(store, options.demoMembers)
  } catch (error) {
    store.close()
    throw error
  }
  const tokens = new TokenIssuer(store, credentials, options.tokenTtlSeconds ?? 3600, now)
  const log = new RequestLog([credentials.clientSecret], now)
  // What a fresh start would hold: the demo or empty data, and --demo-members.
  const reset = () => {
    store.reset(initial())
    if (options.demoMembers) addDemoMembers(store, options.demoMembers)
    log.clear()
    return store.counts()
  }

  async function answer(req: IncomingMessage, warn: (text: string) => void): Promise<Answer> {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid')
    const [first, ...segments] = url.pathname
      .split('/')
      .filter(Boolean)
      .map((segment) => decodeSegment(segment))
    // Outside the API and its auth, and spared --latency and --fail-rate (control.ts).
    if (first === '_sandbox') return control({ segments, req, query: url.searchParams, log, reset })
    if (options.cors && isPreflight(req)) {
      return { status: 204, body: undefined, headers: preflightHeaders(options.cors, req) }
    }
    const version = API_VERSIONS.find((v) => v === first)
    if (!version) throw notFound('no such route: the API is served under /v1 and /v2')

    if (options.latencyMs) await delay(options.latencyMs)
    if (options.failRate && random() < options.failRate) {
      const injected = INJECTED[Math.floor(random() * INJECTED.length)]!
      throw new HttpError(
        injected.status,
        { error: `injected failure (--fail-rate ${options.failRate})` },
        injected.headers,
      )
    }

    const ctx: RouteContext = {
      version,
      segments,
      query: url.searchParams,
      req,
      store,
      tokens,
      now,
      strict: options.strict ?? false,
      warn,
    }
    if (!isTokenRoute(segments)) tokens.authenticate(req, version)
    return route(ctx, req.method ?? 'GET')(ctx)
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now()
    let result: Answer
    const warnings: string[] = []
    try {
      result = await answer(req, (text) => warnings.push(text))
    } catch (error) {
      result =
        error instanceof HttpError
          ? { status: error.status, body: error.body, headers: error.headers }
          : { status: 500, body: { error: `sandbox failure: ${(error as Error).message}` } }
    }
    const cors = options.cors ? corsHeaders(options.cors, req) : {}
    const headers = warnings.length
      ? { ...cors, ...result.headers, warning: warnings.map(warningValue).join(', ') }
      : { ...cors, ...result.headers }
    sendJson(res, result.status, result.body, headers)
    // An unread body would stall the keep-alive connection. It is drained after the answer (a
    // 413), so the connection turns idle only then: if close() has begun, it would otherwise wait
    // for the client to hang up.
    if (!req.readableEnded) {
      req.resume().once('end', () => {
        if (!server.listening) server.closeIdleConnections()
      })
    }
    // What a script sent to the API: not the questions to the sandbox itself, nor preflights.
    const api = !/^\/*_sandbox(?:[/?]|$)/.test(req.url ?? '') && !(options.cors && isPreflight(req))
    if (api) log.add(req, result.status)
    options.onRequest?.({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      status: result.status,
      ms: Math.round(performance.now() - started),
      warnings,
    })
  }

  const server = createServer((req, res) => void handle(req, res))
  server.once('close', () => store.close())
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      store.close()
      reject(error)
    })
    server.listen(options.port ?? 4010, options.host ?? '127.0.0.1', () => {
      server.removeAllListeners('error')
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const origin = clientOrigin(address.address, address.port)

  return {
    url: origin,
    port: address.port,
    baseUrl: (version) => `${origin}/${version}`,
    credentials,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeIdleConnections()
      })
    },
  }
}

function addDemoMembers(store: Store, count: number): void {
  const chamber = store.getChamber(DEMO_LARGE_CHAMBER_ID)
  if (!chamber) {
    throw new DataFileError(
      `--demo-members adds to the demo chamber ${DEMO_LARGE_CHAMBER_ID}, which this sandbox does not have`,
    )
  }
  store.addMembers([chamber], count, (_, i, n) =>
    demoMember(DEMO_LARGE_CHAMBER_ID, DEMO_LARGE_CHAMBER_DOMAIN, i, n),
  )
}

// RFC 7234 §5.5's miscellaneous persistent warning; the text is a quoted string of printable ASCII
// (a parameter's name comes from the request).
function warningValue(text: string): string {
  const quoted = text.replace(/[^ -~]/g, '?').replace(/["\\]/g, '\\$&')
  return `299 chamberctl-sandbox "${quoted}"`
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw new HttpError(400, { error: `malformed percent-encoding in path segment ${segment}` })
  }
}
