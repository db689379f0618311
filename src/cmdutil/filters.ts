// Local checks of filter values with the shared schemas, so that a typo is a usage error before
// any request is sent.
import type { SortableResource } from '../api/resources/index.js'
import { isoDateSchema, sortParamSchema } from '../api/params.js'
import { UsageError } from '../errors.js'

export function parseSort(resource: SortableResource, value: string | undefined) {
  if (value === undefined) return undefined
  const parsed = sortParamSchema(resource).safeParse(value)
  if (!parsed.success) throw new UsageError(`--sort ${value}: ${parsed.error.issues[0]!.message}`)
  return value
}

export function parseDate(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const parsed = isoDateSchema.safeParse(value)
  if (!parsed.success) {
    throw new UsageError(`${flag} ${value}: ${parsed.error.issues[0]!.message}, e.g. 2026-03-01`)
  }
  return value
}
