// The endpoints for test authors under /_sandbox/ (no API path starts with an underscore): outside
// the API's auth, and spared --latency and --fail-rate.
//   GET  /_sandbox/health    whether the server is up
//   POST /_sandbox/reset     the data back to what the sandbox started with; the log emptied
//   GET  /_sandbox/requests  the last API requests (?limit=N), secrets redacted
import type { IncomingMessage } from 'node:http'
import { redactText, redactUrl } from '../api/redact.js'
import { HttpError, bodyOf, notFound, validationError } from './http.js'

// Requests kept, and the characters of each body: the log's size is bounded whatever is sent.
export const REQUESTS_KEPT = 100
export const BODY_KEPT = 16 * 1024

export type LoggedRequest = {
  at: string
  method: string
  path: string
  query: Record<string, string | string[]>
  status: number
  // The body as JSON when it is JSON, else its text; null when there was none.
  body: unknown
  // Set when the body was longer than BODY_KEPT characters (the text is then cut there).
  body_truncated?: true
}

export class RequestLog {
  private readonly entries: LoggedRequest[] = []

  // `secrets`: values masked wherever they appear (the client secret), beside the keys that
  // redactText masks by name (client_secret, access_token, Authorization, ...).
  constructor(
    private readonly secrets: readonly string[],
    private readonly now: () => number,
  ) {}

  add(req: IncomingMessage, status: number): void {
    const url = new URL(redactUrl(new URL(req.url ?? '/', 'http://sandbox.invalid').href))
    const query: LoggedRequest['query'] = {}
    for (const [key, value] of url.searchParams) {
      const seen = query[key]
      query[key] = seen === undefined ? value : [seen, value].flat()
    }
    const text = bodyOf(req)
    const entry: LoggedRequest = {
      at: new Date(this.now()).toISOString(),
      method: req.method ?? 'GET',
      path: url.pathname,
      query,
      status,
      body: null,
    }
    if (text) {
      const kept = redactText(text.slice(0, BODY_KEPT), this.secrets)
      entry.body = text.length > BODY_KEPT ? kept : parseOr(kept)
      if (text.length > BODY_KEPT) entry.body_truncated = true
    }
    this.entries.push(entry)
    if (this.entries.length > REQUESTS_KEPT) this.entries.shift()
  }

  last(limit: number): LoggedRequest[] {
    return this.entries.slice(-limit)
  }

  clear(): void {
    this.entries.length = 0
  }
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

export type ControlContext = {
  segments: string[]
  req: IncomingMessage
  query: URLSearchParams
  log: RequestLog
  // Back to the data the sandbox started with; answers what it now holds.
  reset: () => Record<string, number>
}

const ENDPOINTS: Record<string, { methods: string[]; answer: (ctx: ControlContext) => unknown }> = {
  health: { methods: ['GET', 'HEAD'], answer: () => ({ status: 'ok' }) },
  reset: { methods: ['POST'], answer: (ctx) => ({ status: 'reset', ...ctx.reset() }) },
  requests: { methods: ['GET', 'HEAD'], answer: (ctx) => ({ data: ctx.log.last(limit(ctx)) }) },
}

export function control(ctx: ControlContext): { status: number; body: unknown } {
  const name = ctx.segments.join('/')
  const endpoint = Object.hasOwn(ENDPOINTS, name) ? ENDPOINTS[name] : undefined
  if (!endpoint) {
    throw notFound(
      `no such route: /_sandbox/${name}; there are ${Object.keys(ENDPOINTS).join(', ')}`,
    )
  }
  if (!endpoint.methods.includes(ctx.req.method ?? 'GET')) {
    const allow = endpoint.methods.join(', ')
    throw new HttpError(405, { error: `/_sandbox/${name} answers ${allow}` }, { allow })
  }
  return { status: 200, body: endpoint.answer(ctx) }
}

function limit(ctx: ControlContext): number {
  const value = ctx.query.get('limit')
  if (value === null) return REQUESTS_KEPT
  if (!/^[0-9]+$/.test(value) || Number(value) < 1 || Number(value) > REQUESTS_KEPT) {
    throw validationError('invalid query parameters', {
      limit: [`must be a whole number from 1 to ${REQUESTS_KEPT}`],
    })
  }
  return Number(value)
}
