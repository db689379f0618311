// Local checks of filter values with the shared schemas, so that a typo is a usage error before
// any request is sent.
import { SORT_FIELDS } from '../api/resources/index.js'
import type { SortableResource } from '../api/resources/index.js'
import {
  DATE_FORMS,
  instantOf,
  isDateOnly,
  isoDateSchema,
  rfc3339,
  sortParamSchema,
} from '../api/params.js'
import { UsageError } from '../errors.js'
import { isNear } from '../io/suggest.js'

// A field near the one typed is suggested, its `-` kept: `--sort -nme: did you mean -name?`.
export function parseSort(resource: SortableResource, value: string | undefined) {
  if (value === undefined) return undefined
  const parsed = sortParamSchema(resource).safeParse(value)
  if (parsed.success) return value
  const [, descending, field] = /^(-?)(.*)$/s.exec(value)!
  const near = SORT_FIELDS[resource].filter((name) => isNear(field!, [name]))
  throw new UsageError(
    `--sort ${value}: ${
      near.length
        ? `did you mean ${near.map((name) => descending + name).join(', ')}?`
        : parsed.error.issues[0]!.message
    }`,
  )
}

// A date as the filter sends it: a calendar date as typed, a date-time in RFC 3339 form.
export function parseDate(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const parsed = isoDateSchema.safeParse(value)
  if (!parsed.success) {
    throw new UsageError(`${flag} ${value}: ${parsed.error.issues[0]!.message}; give ${DATE_FORMS}`)
  }
  return rfc3339(value)
}

const HOUR = 3_600_000
// A calendar date is sent as typed, and the server says in which time zone its days are: the
// day starts at most 14 hours before it does in UTC (UTC+14:00) and ends at most 12 hours after
// (UTC-12:00). Set against a date-time, a date is taken at its widest, so that a range is refused
// only when it is empty however the server reads the date; two dates are compared as dates, two
// date-times as instants. Nothing here depends on this machine's time zone.
export function checkDateRange(from: string | undefined, to: string | undefined): void {
  if (from === undefined || to === undefined) return
  const [fromDate, toDate] = [isDateOnly(from), isDateOnly(to)]
  const start = instantOf(from) - (fromDate && !toDate ? 14 * HOUR : 0)
  const end = instantOf(to) + (toDate ? (fromDate ? 24 : 36) * HOUR : 0)
  if (toDate ? start >= end : start > end) {
    throw new UsageError(`--from ${from} is after --to ${to}: no event could match`)
  }
}
