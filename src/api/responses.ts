// Turns answers into values or ApiErrors: non-2xx statuses with whatever body came with them,
// and 2xx bodies checked against the tolerant answer schemas (answers.ts).
import type * as z from 'zod/mini'
import { isPlainObject } from '../util.js'
import { ApiError, excerpt } from './errors.js'
import type { ApiErrorCode } from './errors.js'
import type { FieldErrors } from './schemas.js'
import { MAX_ANSWER_DEPTH, nestsDeeperThan } from './json-text.js'

export type Answer = {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

function codeForStatus(status: number): ApiErrorCode {
  if (status === 401) return 'unauthorized'
  if (status === 403) return 'forbidden'
  if (status === 404) return 'not_found'
  if (status === 422) return 'validation_failed'
  if (status === 429) return 'rate_limited'
  if (status >= 500) return 'server_error'
  if (status >= 400) return 'bad_request'
  return 'unexpected_response'
}

// JSON.rawJSON and the reviver's source text (Node ≥ 21), not yet in TypeScript's lib.
type Reviver = (key: string, value: unknown, context?: { source?: string }) => unknown
const json = JSON as unknown as {
  parse(text: string, reviver?: Reviver): unknown
  rawJSON?: (text: string) => unknown
}

// The number tokens of a JSON text: after its start, a `:`, `,` or `[`, and before a `,`, `}`,
// `]` or its end. Text in a string that looks like one (`"ratio: 1.0, say"`) only costs the
// slower parse; digits in a string otherwise (every timestamp's `.000Z`) do not.
const NUMBER_TOKEN =
  /(?:^|[:,[])\s*(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)(?=\s*(?:[,}\]]|$))/g

// Whether JSON.parse would change a number: beyond 2^53, or written otherwise than JavaScript
// prints it (1.0, 1e3, -0). Only then is the slower reviver worth running; it allocates a
// context for every value of the text.
function altersNumbers(text: string): boolean {
  for (const [, token] of text.matchAll(NUMBER_TOKEN)) {
    if (String(Number(token)) !== token) return true
  }
  return false
}

const keepDigits: Reviver = (_key, value, context) =>
  typeof value === 'number' && context?.source !== undefined && context.source !== String(value)
    ? json.rawJSON!(context.source)
    : value

// JSON.parse that keeps every number as the server wrote it: such a number becomes raw JSON,
// which JSON.stringify prints with its own digits (an id 12345678901234567890 stays that). A text
// nested deeper than any answer could be is refused before it is parsed (json-text.ts).
export function parseJsonText(text: string): unknown {
  if (nestsDeeperThan(text, MAX_ANSWER_DEPTH)) {
    throw new ApiError(
      'unexpected_response',
      `the server's answer is nested more than ${MAX_ANSWER_DEPTH} levels deep`,
    )
  }
  return json.rawJSON && altersNumbers(text) ? json.parse(text, keepDigits) : JSON.parse(text)
}

function tryJson(text: string): unknown {
  try {
    return parseJsonText(text)
  } catch {
    return undefined
  }
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined

// An OAuth-style code (invalid_client, not_found, E1234): one word. A sentence in `error` is a
// message, as in the spec's 404 {"error": "Chamber not found."}.
const asCode = (value: unknown): string | undefined => {
  const t = text(value) ?? (typeof value === 'number' ? String(value) : undefined)
  return t !== undefined && /^[\w.:-]{1,64}$/.test(t) ? t : undefined
}

type ErrorBody = { code?: string; message?: string; fields?: FieldErrors }

// Reads an error body of any shape: OAuth {error, error_description}, the spec's {error, fields},
// {error: {code, message}}, {code, message}, RFC 7807 {title, detail}, JSON:API {errors: [...]},
// Laravel-style {message, errors: {field: [...]}}.
export function readErrorBody(body: unknown): ErrorBody {
  if (!isPlainObject(body)) return {}
  const nested = isPlainObject(body.error) ? body.error : undefined
  const list = Array.isArray(body.errors) ? body.errors.filter(isPlainObject) : []
  const first = list[0]
  const code =
    asCode(body.error) ??
    asCode(nested?.code) ??
    asCode(body.code) ??
    asCode(body.error_code) ??
    asCode(first?.code)
  const message =
    text(body.error_description) ??
    text(nested?.message) ??
    text(nested?.description) ??
    text(body.message) ??
    text(body.detail) ??
    text(body.title) ??
    (asCode(body.error) ? undefined : text(body.error)) ??
    text(first?.detail) ??
    text(first?.message) ??
    text(first?.title)
  const fields =
    fieldErrors(body.fields) ??
    fieldErrors(nested?.fields) ??
    fieldErrors(isPlainObject(body.errors) ? body.errors : undefined) ??
    fieldErrorsFromList(list)
  return { code, message, fields }
}

// {field: [messages]} with any value: a string, a list of anything, an object.
function fieldErrors(value: unknown): FieldErrors | undefined {
  if (!isPlainObject(value)) return undefined
  const fields: FieldErrors = {}
  for (const [field, messages] of Object.entries(value)) {
    fields[field] = (Array.isArray(messages) ? messages : [messages]).map(messageText)
  }
  return Object.keys(fields).length ? fields : undefined
}

// [{field|source.pointer|path, message|detail}] as JSON:API and others list them.
function fieldErrorsFromList(list: Record<string, unknown>[]): FieldErrors | undefined {
  const fields: FieldErrors = {}
  for (const entry of list) {
    const source = isPlainObject(entry.source) ? entry.source : {}
    const name =
      text(entry.field) ??
      text(entry.path) ??
      text(source.pointer)
        ?.replace(/^\/(data\/attributes\/)?/, '')
        .replaceAll('/', '.') ??
      text(source.parameter)
    if (name) (fields[name] ??= []).push(messageText(entry))
  }
  return Object.keys(fields).length ? fields : undefined
}

function messageText(value: unknown): string {
  if (typeof value === 'string') return value
  if (isPlainObject(value)) {
    const said = text(value.message) ?? text(value.detail) ?? text(value.title)
    if (said) return said
  }
  return JSON.stringify(value) ?? String(value)
}

// Builds the error for a non-2xx answer from whatever body came with it. `token` marks the
// answer of /auth/token, where any refusal (400 or 401 with any body) is an authentication failure.
export function errorFromResponse(
  status: number,
  body: string,
  options: { token?: boolean; retryAfterMs?: number; hint?: string } = {},
): ApiError {
  const { code: serverCode, message, fields } = readErrorBody(tryJson(body))
  let code = codeForStatus(status)
  if (options.token && status >= 400 && status < 500 && status !== 429) {
    code = serverCode === 'invalid_client' ? 'invalid_client' : 'unauthorized'
  } else if (status === 401 && serverCode === 'invalid_client') code = 'invalid_client'
  const said = [serverCode, message].filter(Boolean).join(': ')
  const { retryAfterMs, hint } = options
  if (said) {
    return new ApiError(code, `${said} (HTTP ${status})`, { status, fields, retryAfterMs, hint })
  }
  const shown = excerpt(body)
  return new ApiError(code, `HTTP ${status} from the server${shown ? `: ${shown}` : ''}`, {
    status,
    fields,
    excerpt: shown,
    retryAfterMs,
    hint,
  })
}

// Parses a 2xx body as JSON; anything else is an unexpected response that names what came back.
export function parseJson(answer: Answer): unknown {
  try {
    return parseJsonText(answer.text)
  } catch (error) {
    if (error instanceof ApiError) throw error
    throw new ApiError(
      'unexpected_response',
      `the server's answer is not JSON (HTTP ${answer.status}): ${excerpt(answer.text) || '(empty body)'}`,
      { status: answer.status, excerpt: excerpt(answer.text) },
    )
  }
}

export function parseAnswer<S extends z.ZodMiniType>(schema: S, answer: Answer): z.infer<S> {
  const result = schema.safeParse(parseJson(answer))
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const where = issue?.path.length ? issue.path.join('.') : 'body'
  throw new ApiError(
    'unexpected_response',
    `unexpected answer from the server (HTTP ${answer.status}): ${where}: ${issue?.message}; got ${excerpt(answer.text)}`,
    { status: answer.status, excerpt: excerpt(answer.text) },
  )
}
