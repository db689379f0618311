// The fields of each resource as the spec shows them, for --fields (contract §1: an unknown name
// is a usage error listing these) and for `chamberctl fields`. Nested ones are dotted paths.
import { UsageError } from '../errors.js'

export const RESOURCE_FIELDS = {
  chambers: [
    'id',
    'name',
    'type',
    'hq_id',
    'status',
    'address',
    'address.street',
    'address.city',
    'address.postal_code',
    'address.region',
    'address.country',
    'created_at',
    // With --include.
    'members',
    'events',
  ],
  members: ['id', 'chamber_id', 'name', 'email', 'phone', 'membership_type', 'status', 'joined_at'],
  events: ['id', 'chamber_id', 'title', 'status', 'starts_at', 'ends_at', 'location', 'created_at'],
} as const
export type Resource = keyof typeof RESOURCE_FIELDS
export const RESOURCES = Object.keys(RESOURCE_FIELDS) as Resource[]

// Throws before anything is sent when --fields names a field that `what` does not have.
export function checkFields(
  fields: readonly string[] | undefined,
  known: readonly string[],
  what: string,
): void {
  const unknown = fields?.filter((field) => !known.includes(field)) ?? []
  if (unknown.length === 0) return
  const names = unknown.map((field) => `"${field}"`).join(', ')
  throw new UsageError(
    `--fields: ${what} ${unknown.length === 1 ? 'have no field' : 'have no fields'} ${names}; known: ${known.join(', ')}`,
  )
}
