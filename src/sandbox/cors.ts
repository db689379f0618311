// --cors ORIGIN (or *): lets a page on that origin call the sandbox from a browser. Preflights are
// answered 204 before auth, --latency and --fail-rate; every answer to a request from the origin
// carries Access-Control-Allow-Origin. Without --cors nothing is added.
import type { IncomingMessage } from 'node:http'
import type { Headers } from './http.js'

const METHODS = 'GET, HEAD, POST, OPTIONS'
// What a client of the API sends beyond the safelisted headers, and what a script may read.
const ALLOWED_HEADERS = ['Authorization', 'Content-Type']
const EXPOSED_HEADERS = 'Location, Retry-After, Warning, WWW-Authenticate'
const MAX_AGE_SECONDS = 600

export function isPreflight(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined
}

// The headers of a preflight's 204: none when the origin is not the one allowed.
export function preflightHeaders(allowed: string, req: IncomingMessage): Headers {
  const origin = allowOrigin(allowed, req)
  if (!origin) return {}
  const requested = (req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name && !ALLOWED_HEADERS.some((h) => h.toLowerCase() === name.toLowerCase()))
  return {
    ...origin,
    'access-control-allow-methods': METHODS,
    'access-control-allow-headers': [...ALLOWED_HEADERS, ...requested].join(', '),
    'access-control-max-age': String(MAX_AGE_SECONDS),
    vary: 'Origin, Access-Control-Request-Headers',
  }
}

// The headers every other answer to a request from the allowed origin gets.
export function corsHeaders(allowed: string, req: IncomingMessage): Headers {
  const origin = allowOrigin(allowed, req)
  return origin
    ? { ...origin, 'access-control-expose-headers': EXPOSED_HEADERS, vary: 'Origin' }
    : {}
}

function allowOrigin(allowed: string, req: IncomingMessage): Headers | undefined {
  const origin = req.headers.origin
  if (origin === undefined || (allowed !== '*' && origin !== allowed)) return undefined
  return { 'access-control-allow-origin': allowed === '*' ? '*' : origin }
}
