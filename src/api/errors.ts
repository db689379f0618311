// Errors of the API client, each with a stable code. The CLI maps codes to exit codes in one
// place (src/errors.ts); nothing here knows about exit codes or terminals.
import { redactText } from './redact.js'
import type { FieldErrors } from './schemas.js'

export type ApiErrorCode =
  | 'unauthorized' // 401 on an API call, after one refresh
  | 'invalid_client' // 401 from /auth/token
  | 'forbidden'
  | 'not_found'
  | 'validation_failed' // 422
  | 'bad_request' // other 4xx
  | 'rate_limited' // 429 after the last attempt
  | 'server_error' // 5xx
  | 'unexpected_response' // a body or status the client cannot use
  | 'answer_too_large' // past MAX_ANSWER_BYTES, not read further
  | 'not_http' // what came back is not an HTTP answer
  | 'malformed_answer' // headers or content-encoding that cannot be read
  | 'invalid_request' // a request undici refuses to write (nothing was sent)
  | 'connection_failed' // no connection was made: nothing was sent
  | 'too_many_open_files' // no file descriptor left for a connection: nothing was sent
  | 'connection_lost' // the connection broke after the request left: a GET is retried
  | 'timeout'
  | 'unknown_outcome' // a request that changes something may have been applied: no answer came
  | 'not_configured' // no base URL or credentials to use

export class ApiError extends Error {
  readonly status: number | null
  readonly code: ApiErrorCode
  readonly fields: FieldErrors | undefined
  readonly excerpt: string | undefined
  // A 429's Retry-After, in milliseconds (capped), when it gave one.
  readonly retryAfterMs: number | undefined
  // What to do about it, when the client knows better than the code's usual advice.
  readonly hint: string | undefined

  constructor(
    code: ApiErrorCode,
    message: string,
    extra: {
      status?: number | null
      fields?: FieldErrors
      excerpt?: string
      retryAfterMs?: number
      hint?: string
      cause?: unknown
    } = {},
  ) {
    super(message, { cause: extra.cause })
    this.name = 'ApiError'
    this.code = code
    this.status = extra.status ?? null
    this.fields = extra.fields
    this.excerpt = extra.excerpt
    this.retryAfterMs = extra.retryAfterMs
    this.hint = extra.hint
  }
}

const EXCERPT_LENGTH = 120

// A short, single-line piece of a body for messages: enough to recognise an HTML error page.
// Secrets are masked before it is cut, so that no part of one survives at the cut.
export function excerpt(text: string): string {
  const flat = redactText(text).replace(/\s+/g, ' ').trim()
  return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH)}…` : flat
}
