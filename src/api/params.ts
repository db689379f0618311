// The list query parameters, as the API names them, and the dates of its filters: what a list
// command checks before sending (and the sandbox on receiving). Apart from the records' and
// bodies' schemas (schemas.ts), so that a list loads four schemas, not forty.
import * as z from 'zod/mini'
import { INCLUDES, MAX_PER_PAGE } from './constants.js'
import { SORT_FIELDS } from './resources/index.js'
import type { SortableResource } from './resources/index.js'

// Page numbers come in as strings (from a URL or argv), bounded even without a max: past
// MAX_SAFE_INTEGER a number does not round-trip, and page=1e400 came back as current_page null.
const positiveInt = (field: string, max = Number.MAX_SAFE_INTEGER) =>
  z.pipe(
    z.string().check(z.regex(/^\d+$/, `${field} must be a positive integer`)),
    z.transform(Number).check(
      z.refine((n) => n >= 1, `${field} must be at least 1`),
      z.refine((n) => n <= max, `${field} must be at most ${max}`),
    ),
  )

export const pageParamsSchema = z.object({
  page: z.optional(positiveInt('page')),
  per_page: z.optional(positiveInt('per_page', MAX_PER_PAGE)),
})

export function sortParamSchema(resource: SortableResource) {
  const fields: readonly string[] = SORT_FIELDS[resource]
  return z
    .string()
    .check(
      z.refine(
        (value) => fields.includes(value.replace(/^-/, '')),
        `sort must be one of ${fields.join(', ')}, optionally with a leading -`,
      ),
    )
}

// include=members,events on GET /chambers/{id}: related lists to embed, each named once.
export const includeSchema = z.pipe(
  z.string(),
  z
    .transform((value: string) => [
      ...new Set(
        value
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
      ),
    ])
    .check(
      z.superRefine((names, ctx) => {
        const unknown = names.filter((name) => !(INCLUDES as readonly string[]).includes(name))
        if (names.length && !unknown.length) return
        const found = unknown.length ? `unknown ${unknown.join(', ')}; ` : ''
        ctx.addIssue({
          code: 'custom',
          message: `${found}give a comma-separated list of ${INCLUDES.join(', ')}`,
          input: names,
        })
      }),
    ),
)

// ISO 8601 date or date-time, as accepted by filter[date_from]/filter[date_to] and --from/--to. A
// date-time must say its offset (Z or ±hh:mm, as RFC 3339 and the spec's `format: date-time`
// have it): one without would be read in the time zone of whichever machine reads it, and the
// same command would ask for another instant in another place.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/
export const DATE_FORMS = '2026-12-05, 2026-12-05T03:00Z or 2026-12-05T03:00+01:00'

export const isoDateSchema = z.string().check(
  z.superRefine((value, ctx) => {
    const problem = dateProblem(value)
    if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value })
  }),
)

function dateProblem(value: string): string | undefined {
  if (isNaN(instantOf(value))) return 'must be an ISO 8601 date or date-time'
  if (!isDateOnly(value) && !ISO_DATE_TIME.exec(value)![3]) {
    return 'is a date-time without Z or an offset'
  }
  return dayProblem(value)
}

// Date.parse takes any day up to the 31st and rolls it over: 2026-02-30 would be sent as and
// taken for March 2. A day the month does not have is refused.
function dayProblem(value: string): string | undefined {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number]
  const days = month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31
  return day > days
    ? `is not a day of the calendar (${value.slice(0, 7)} has ${days} days)`
    : undefined
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
}

export function isDateOnly(value: string): boolean {
  return ISO_DATE.test(value)
}

// The instant an ISO 8601 date (its first moment, in UTC) or date-time stands for; NaN for any
// other text. One without an offset is read as UTC, never in the zone of the machine reading it:
// the sandbox stores events' times so, whatever a data file holds.
export function instantOf(value: string): number {
  if (ISO_DATE.test(value)) return Date.parse(value)
  const dateTime = ISO_DATE_TIME.exec(value)
  if (!dateTime) return NaN
  return Date.parse(dateTime[3] ? value : `${value}Z`)
}

// A checked date-time as RFC 3339 writes it, which the spec's `format: date-time` is: seconds
// added where none were typed, the offset with its colon. The same instant, the offset as typed.
export function rfc3339(value: string): string {
  const dateTime = ISO_DATE_TIME.exec(value)
  if (!dateTime) return value
  const [, minutes, seconds = ':00', offset = ''] = dateTime
  return `${minutes}${seconds}${offset.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')}`
}

// The instants a date filter covers, as the sandbox reads them: a date without a time covers that
// whole day in UTC. A range whose start is after its end matches nothing (said in a Warning).
export function dateBounds(from: string | undefined, to: string | undefined) {
  return {
    from: from === undefined ? -Infinity : instantOf(from),
    to: to === undefined ? Infinity : instantOf(to) + (isDateOnly(to) ? 86_400_000 - 1 : 0),
  }
}
