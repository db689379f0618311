// What the client requires of a server's answers: tolerant where schemas.ts is strict (contract
// §9). A list needs a `data` array of objects and uses `meta` only where it is sane; a record
// needs an id only where a command must send it back; every other field may be anything, and
// records are handed on as parsed, untouched, so that --json prints what the server sent.
import * as z from 'zod/mini'
import { isPlainObject } from '../util.js'

export type AnswerRecord = Record<string, unknown>
// Ids may be any non-empty string or a number: printed as received, sent back as idText(id). A
// number JSON.parse could not hold exactly arrives as raw JSON (responses.ts), keeping its digits.
export type RawNumber = { readonly rawJSON: string }
export type AnswerId = string | number | RawNumber

// What a list's `meta` said, keeping only values that can be trusted; anything else (missing,
// null, text, negative) is left out, and pagination then goes by the pages themselves.
export type PageMeta = { current_page?: number; total?: number; per_page?: number }
export type Page<T = AnswerRecord> = { data: T[]; meta: PageMeta }

function isRawNumber(value: unknown): value is RawNumber {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<RawNumber>).rawJSON === 'string' &&
    /^-?\d/.test((value as RawNumber).rawJSON)
  )
}

export function isAnswerId(value: unknown): value is AnswerId {
  return (
    (typeof value === 'string' && value !== '') ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    isRawNumber(value)
  )
}

// The id as it goes into a path or a request body.
export function idText(id: AnswerId): string {
  return typeof id === 'object' ? id.rawJSON : String(id)
}

// The id for a message: its text, or a note that the server gave none.
export function describeId(id: unknown): string {
  return isAnswerId(id) ? idText(id) : '(the server gave no id)'
}

// A record as completion and prompts offer it: its id's text, and its name when it has one.
export function idAndName(record: AnswerRecord): { id: string; name?: string } | undefined {
  if (!isAnswerId(record.id)) return undefined
  const { name } = record
  const label = typeof name === 'string' || typeof name === 'number' ? String(name) : undefined
  return label === undefined ? { id: idText(record.id) } : { id: idText(record.id), name: label }
}

export const answerRecord = z.custom<AnswerRecord>(isPlainObject, { error: 'must be an object' })

export const listAnswer = z.looseObject({
  data: z.array(answerRecord),
  meta: z.optional(z.unknown()),
})

export function pageOf<T>(list: { data: T[]; meta?: unknown }): Page<T> {
  const meta = isPlainObject(list.meta) ? list.meta : {}
  return {
    data: list.data,
    meta: withoutUndefined({
      current_page: count(meta.current_page, 1),
      total: count(meta.total, 0),
      per_page: count(meta.per_page, 1),
    }),
  }
}

// An integer a page count can be built on: a number or a string of digits, at least `min`.
function count(value: unknown, min: number): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= min ? n : undefined
}

function withoutUndefined(meta: PageMeta): PageMeta {
  return Object.fromEntries(Object.entries(meta).filter(([, v]) => v !== undefined))
}

// POST /auth/token: only the token is needed. token_type may be any case or missing, and an
// expires_in that is not a usable number of seconds means "serves until refused".
export type TokenAnswer = { access_token: string; expires_in?: number }
export const tokenAnswer = z.pipe(
  z.looseObject({
    access_token: z.string().check(z.minLength(1)),
    expires_in: z.optional(z.unknown()),
  }),
  z.transform(({ access_token, expires_in }): TokenAnswer => {
    const seconds =
      typeof expires_in === 'string' && expires_in.trim() !== '' ? Number(expires_in) : expires_in
    return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0
      ? { access_token, expires_in: seconds }
      : { access_token }
  }),
)
