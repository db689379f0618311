// One HTTP exchange with the API, composed once: user agent, bearer auth with one refresh on 401,
// per-attempt timeout, retries for safe requests and of any request answered 429 (contract §5)
// and a redacted debug trace.
import type { Dispatcher } from 'undici'
import { MAX_TIMER_MS, request } from './undici.js'
import type { ExchangeError } from './undici.js'
import { ApiError, excerpt } from './errors.js'
import type { ApiErrorCode } from './errors.js'
import { errorFromResponse } from './responses.js'
import type { Answer } from './responses.js'
import { REDACTED, redactText, redactUrl } from './redact.js'

export type TokenSource = {
  // A token to send; fetched or refreshed as needed.
  token(): Promise<string>
  // Called after a 401 with the token that was rejected; resolves to a newer one, or undefined
  // when no fresher token can be had (a fixed CHAMBERCTL_TOKEN, say).
  refresh(rejected: string): Promise<string | undefined>
  // The variable the token in use came from, when the user gave it: a 401 names it.
  readonly from?: string
}

export type TransportOptions = {
  baseUrl: string
  dispatcher: Dispatcher
  userAgent: string
  timeoutMs: number
  tokens?: TokenSource
  trace?: (line: string) => void
  // Told what each exchange waits for, attempt by attempt (on a terminal, a spinner: the CLI's
  // cmdutil/waiting.ts).
  watch?: WatchExchange
  // Injected by tests so that backoff never really waits, and the time a failure names is known.
  sleep?: (ms: number) => Promise<void>
  random?: () => number
  now?: () => number
}

// Follows one exchange (a request and its retries): each attempt as it leaves, then its end, once,
// whether an answer came or the exchange gave up.
export type ExchangeWatch = {
  // The `attempt`th leaves, of at most `attempts` (1: this one is not sent again on a failure).
  attempt(attempt: number, attempts: number): void
  end(): void
}
export type WatchExchange = (target: { host: string; method: Method }) => ExchangeWatch

export type Exchange = {
  method: Method
  path: string
  query?: Record<string, string | number | undefined>
  // An object is sent as JSON; a string is sent as it is (`api --input`).
  body?: unknown
  headers?: Record<string, string>
  // false for the token request itself.
  auth?: boolean
  // Retry this even though it is not a GET: only for requests that create nothing.
  idempotent?: boolean
  // The caller paces its requests (a bulk run, which pauses every sender): a 429 is handed back
  // at once, with its Retry-After, instead of waited on here.
  paced?: boolean
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS'

export const MAX_ATTEMPTS = 3
const RETRY_STATUSES = new Set([429, 502, 503, 504])
// Failures to get an answer that another attempt may not meet.
const RETRY_CODES = new Set<ApiErrorCode>(['connection_failed', 'connection_lost', 'timeout'])
export const ACCEPT_ENCODING = 'gzip, deflate, br'
const GATEWAY_LOST_ANSWER = new Set([502, 504])
const BACKOFF_BASE_MS = 300
const RETRY_AFTER_CAP_MS = 60_000

export class Transport {
  private readonly sleep: (ms: number) => Promise<void>
  private readonly random: () => number
  private readonly now: () => number

  constructor(private readonly options: TransportOptions) {
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
    this.random = options.random ?? Math.random
    this.now = options.now ?? Date.now
  }

  // Where every exchange goes, as a person reads it (`api.example.com`, `127.0.0.1:5000`).
  private get host(): string {
    return new URL(this.options.baseUrl).host
  }

  url(path: string, query: Exchange['query'] = {}): URL {
    const url = new URL(this.options.baseUrl.replace(/\/+$/, '') + path)
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(key, String(value))
    }
    return url
  }

  // Sends the exchange and returns the 2xx answer; anything else becomes an ApiError.
  async send(exchange: Exchange): Promise<Answer> {
    const answer = await this.exchange(exchange)
    if (answer.status >= 200 && answer.status < 300) return answer
    throw this.failure(exchange, answer)
  }

  // The error a non-2xx answer stands for. A gateway's 502 or 504 means the server behind it was
  // asked and its answer was lost or late: a request that changes something may have been
  // applied there, and calling it failed would invite sending it again.
  failure(exchange: Exchange, answer: Answer): ApiError {
    if (!isRetryable(exchange) && GATEWAY_LOST_ANSWER.has(answer.status)) {
      const url = this.url(exchange.path, exchange.query)
      return new ApiError(
        'unknown_outcome',
        `${url.host} answered HTTP ${answer.status} (a gateway that lost the server's answer) to ` +
          `${exchange.method} ${url.pathname}: ${UNKNOWN_OUTCOME}`,
        { status: answer.status, excerpt: excerpt(answer.text) },
      )
    }
    // Redirects are not followed (a token must not travel to wherever one points): say where.
    const location = answer.headers.location
    if (answer.status >= 300 && answer.status < 400 && location) {
      return new ApiError(
        'unexpected_response',
        `HTTP ${answer.status} from the server: redirected to ${String(location)}, which ` +
          'chamberctl does not follow (is the base URL right?)',
        { status: answer.status },
      )
    }
    const from = exchange.auth !== false ? this.options.tokens?.from : undefined
    return errorFromResponse(answer.status, answer.text, {
      token: exchange.auth === false,
      hint:
        answer.status === 401 && from
          ? `the token in ${from} was refused: set a valid one, or unset it to use your login`
          : undefined,
      retryAfterMs:
        answer.status === 429 ? retryAfter(answer.headers['retry-after'], Date.now()) : undefined,
    })
  }

  // Sends the exchange and returns whatever answer it finally got, after retries and one
  // token refresh on a 401; only failures to get an answer at all are thrown.
  async exchange(exchange: Exchange): Promise<Answer> {
    const auth = exchange.auth !== false && this.options.tokens
    let token = auth ? await auth.token() : undefined
    const answer = await this.withRetries(exchange, token)
    if (answer.status !== 401 || !auth || !token) return answer
    // The server refused without acting, so one retry with a fresh token is safe.
    token = await auth.refresh(token)
    return token ? this.withRetries(exchange, token) : answer
  }

  private async withRetries(exchange: Exchange, token: string | undefined): Promise<Answer> {
    const retryable = isRetryable(exchange)
    const watch = this.options.watch?.({ host: this.host, method: exchange.method })
    const started = this.now()
    try {
      for (let attempt = 1; ; attempt++) {
        // A request that changes something is sent again only after a 429, which says so.
        watch?.attempt(attempt, retryable || attempt > 1 ? MAX_ATTEMPTS : 1)
        let answer: Answer
        try {
          answer = await this.attempt(exchange, token, attempt)
        } catch (error) {
          if (!(error instanceof Unanswered)) throw error
          const tries = { attempts: attempt, ms: this.now() - started }
          const failure = this.failed(exchange, error.target, error.error, tries)
          const again = retryable && RETRY_CODES.has(failure.code) && attempt < MAX_ATTEMPTS
          if (!again) throw failure
          await this.sleep(backoff(attempt, this.random))
          continue
        }
        // A 429 was not applied (RFC 6585): sending it again is safe whatever the method.
        const again = retryable
          ? RETRY_STATUSES.has(answer.status)
          : answer.status === 429 && !exchange.paced
        if (!again || attempt >= MAX_ATTEMPTS) return answer
        await this.sleep(
          retryAfter(answer.headers['retry-after'], Date.now()) ?? backoff(attempt, this.random),
        )
      }
    } finally {
      watch?.end()
    }
  }

  private async attempt(exchange: Exchange, token: string | undefined, n: number): Promise<Answer> {
    const target = this.url(exchange.path, exchange.query)
    const url = target.href
    const headers: Record<string, string> = {
      'user-agent': this.options.userAgent,
      accept: 'application/json',
      'accept-encoding': ACCEPT_ENCODING,
      ...exchange.headers,
    }
    if (token) headers.authorization = `Bearer ${token}`
    let body: string | undefined
    if (typeof exchange.body === 'string') {
      body = exchange.body
      headers['content-type'] ??= 'application/json'
    } else if (exchange.body !== undefined) {
      body = JSON.stringify(exchange.body)
      headers['content-type'] = 'application/json'
    }
    const started = Date.now()
    // Every secret is masked before the line is written: the Authorization header, and
    // client_secret/access_token in bodies (the token request and its answer). A failure's answer
    // is shown too: what the server said, where the error line says it in chamberctl's words.
    const trace = (outcome: string, answer?: string) =>
      this.options.trace?.(
        [
          `${exchange.method} ${redactUrl(url)} → ${outcome} (${Date.now() - started} ms, attempt ${n}/${MAX_ATTEMPTS})`,
          ...(headers.authorization ? [`  authorization: Bearer ${REDACTED}`] : []),
          ...(body ? [`  request body: ${redactText(body)}`] : []),
          ...(answer && (exchange.auth === false || /^[45]/.test(outcome))
            ? [`  response body: ${redactText(answer)}`]
            : []),
        ].join('\n'),
      )
    try {
      const response = await request(this.options.dispatcher, target, {
        method: exchange.method,
        headers,
        body,
        timeoutMs: this.options.timeoutMs,
      })
      trace(String(response.statusCode), response.text)
      return { status: response.statusCode, headers: response.headers, text: response.text }
    } catch (error) {
      const failed = error as ExchangeError
      trace(failed.kind === 'timeout' ? 'timeout' : `failed: ${reason(failed)}`)
      throw new Unanswered(target, failed)
    }
  }

  // What an exchange that got no usable answer means (contract §5): "cannot reach" only when no
  // connection was made; a request that changes something and may have reached the server has
  // an unknown outcome; an answer that is not HTTP, too large or malformed is what it is. After
  // more than one attempt, it says how many and how long they took in all (contract §5).
  private failed(exchange: Exchange, target: URL, error: ExchangeError, tries: Tries): ApiError {
    const where = target.host
    const changes = !isRetryable(exchange)
    const options = { cause: error }
    const after =
      tries.attempts > 1
        ? ` after ${tries.attempts} attempts in ${(tries.ms / 1000).toFixed(1)} s`
        : ''
    if (error.kind === 'invalid') {
      return new ApiError(
        'invalid_request',
        `cannot send ${exchange.method} ${target.pathname}: ${error.message}`,
        options,
      )
    }
    // The process, not the network: it has no file descriptor left for another connection.
    if (error.code !== undefined && OUT_OF_FILES.has(error.code)) {
      const unsent = changes ? `; ${exchange.method} ${target.pathname} was not sent` : ''
      return new ApiError(
        'too_many_open_files',
        `too many open files (${error.code}) to connect to ${where}: raise the limit ` +
          `(ulimit -n) or lower --concurrency${unsent}`,
        options,
      )
    }
    if (!error.sent) {
      const why =
        error.kind === 'timeout' ? `no connection within ${this.seconds} s` : reason(error)
      const unsent = changes ? ` (${exchange.method} ${target.pathname} was not sent)` : ''
      return new ApiError(
        error.kind === 'timeout' ? 'timeout' : 'connection_failed',
        `cannot reach ${where}${after}: ${why}${unsent}`,
        options,
      )
    }
    if (error.kind === 'timeout' || error.kind === 'network') {
      // Whether it was applied cannot be known, and saying "cannot reach" would invite a
      // duplicate.
      if (changes) {
        const what = error.kind === 'timeout' ? `within ${this.seconds} s` : `(${reason(error)})`
        return new ApiError(
          'unknown_outcome',
          `no answer from ${where} ${what} after sending ${exchange.method} ${target.pathname}: ` +
            UNKNOWN_OUTCOME,
          options,
        )
      }
      if (error.kind === 'network') {
        return new ApiError(
          'connection_lost',
          `the connection to ${where} was lost before its answer${after} (${reason(error)})`,
          options,
        )
      }
      const message =
        tries.attempts > 1
          ? `no answer from ${where}${after} (each waited ${this.seconds} s)`
          : `no answer from ${where} within ${this.seconds} s`
      return new ApiError('timeout', message, options)
    }
    const [code, describe] = ANSWER_FAILURES[error.kind]
    const applied = changes ? `; ${UNKNOWN_OUTCOME}` : ''
    return new ApiError(code, `${describe(where, error.message)}${applied}`, options)
  }

  private get seconds(): number {
    return Math.min(this.options.timeoutMs, MAX_TIMER_MS) / 1000
  }
}

// How many attempts an exchange made, and in how long from the first one's start.
type Tries = { attempts: number; ms: number }

// An attempt that got no usable answer: what failed, for the retry loop to describe once it knows
// whether another attempt follows.
class Unanswered extends Error {
  constructor(
    readonly target: URL,
    readonly error: ExchangeError,
  ) {
    super(error.message)
  }
}

// The answers that came but cannot be used: exit 1, never retried.
const ANSWER_FAILURES: Record<
  'too_large' | 'not_http' | 'bad_headers' | 'bad_encoding',
  [ApiErrorCode, (where: string, said: string) => string]
> = {
  too_large: ['answer_too_large', (where, said) => `${said} (from ${where}); reading stopped`],
  not_http: ['not_http', (where, said) => `not an HTTP answer from ${where}: ${said}`],
  bad_headers: ['malformed_answer', (where, said) => `malformed headers from ${where}: ${said}`],
  bad_encoding: ['malformed_answer', (where, said) => `${said} (from ${where})`],
}

// Exponential backoff with full jitter: 0..300 ms, then 0..600 ms, ..., at most a minute.
function backoff(attempt: number, random: () => number): number {
  return Math.round(random() * Math.min(BACKOFF_BASE_MS * 2 ** (attempt - 1), RETRY_AFTER_CAP_MS))
}

// Retry-After is seconds or an HTTP date; capped so a hostile value cannot stall a script. An
// HTTP date is always GMT (RFC 9110 §5.6.7), also in the asctime form that does not say so, which
// Date.parse would read in this machine's time zone.
const ASCTIME = /^\s*[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}\s*$/
export function retryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const header = Array.isArray(value) ? value[0] : value
  if (!header) return undefined
  const date = ASCTIME.test(header) ? `${header.trim()} GMT` : header
  const seconds = /^\s*\d+\s*$/.test(header) ? Number(header) * 1000 : Date.parse(date) - now
  if (Number.isNaN(seconds)) return undefined
  return Math.min(Math.max(seconds, 0), RETRY_AFTER_CAP_MS)
}

export const UNKNOWN_OUTCOME = 'the request may have been applied: check before retrying'

function isRetryable(exchange: Exchange): boolean {
  return exchange.method === 'GET' || exchange.idempotent === true
}

// The error's message with its code, where the message does not say it: "connect ECONNREFUSED
// 127.0.0.1:3128" names the address that refused (a proxy's, when one is used).
function reason(error: ExchangeError): string {
  const { code } = error
  // Node's own advice (run Node.js with --use-system-ca) is for a Node user, and chamberctl's
  // single executable takes no Node flags; the environment variable works for both.
  const message = error.message.replace(
    /; if the root CA is installed locally, try running .*$/,
    '',
  )
  const said = code === undefined || message.includes(code) ? message : `${message} (${code})`
  return code !== undefined && UNTRUSTED_CERTIFICATE.has(code) ? `${said}; ${TRUST_HINT}` : said
}

// This process (EMFILE) or the whole system (ENFILE) has no file descriptor left.
const OUT_OF_FILES = new Set(['EMFILE', 'ENFILE'])

// A certificate whose chain ends at no CA this process trusts (not one that is expired or names
// another host: trusting a CA would not help those).
const UNTRUSTED_CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
])
const TRUST_HINT = 'to trust its CA, set NODE_EXTRA_CA_CERTS to its PEM file'
