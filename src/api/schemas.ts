// The one definition of the chamber directory API's shapes. The client parses responses with
// these, the CLI validates input with them before sending, and the sandbox validates requests
// and its data file with them. Records are loose: fields a real server adds are kept.
import { z } from 'zod'
import { CHAMBER_TYPES, MAX_PER_PAGE, RECORD_STATUSES, SORT_FIELDS } from './constants.js'
import type { SortableResource } from './constants.js'

export * from './constants.js'

function requiredString(what = 'a string') {
  return z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : `must be ${what}`) })
    .trim()
    .min(1, 'is required')
}

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, {
    error: (issue) =>
      issue.input === undefined ? 'is required' : `must be one of: ${values.join(', ')}`,
  })
}

const optionalString = z.string({ error: 'must be a string' })

// Address structure is "not shown" in the spec; this is the sandbox's, and extra keys are kept.
// Every value is a string so that postal codes keep their leading zeros.
export const addressSchema = z.looseObject(
  {
    street: optionalString.optional(),
    city: optionalString.optional(),
    postal_code: optionalString.optional(),
    region: optionalString.optional(),
    country: optionalString.optional(),
  },
  { error: (issue) => (issue.input === undefined ? 'is required' : 'must be an object') },
)
export type Address = z.infer<typeof addressSchema>

// Records as a server returns them. Only the id is required of a foreign server; the sandbox
// always fills every field.
export const idSchema = z.string().min(1)

export const chamberSchema = z.looseObject({
  id: idSchema,
  name: z.string().optional(),
  type: z.string().optional(),
  hq_id: z.string().nullable().optional(),
  address: addressSchema.nullable().optional(),
  status: z.string().optional(),
  created_at: z.string().optional(),
})
export type Chamber = z.infer<typeof chamberSchema>

export const memberSchema = z.looseObject({
  id: idSchema,
  chamber_id: z.string().optional(),
  name: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().nullable().optional(),
  membership_type: z.string().optional(),
  status: z.string().optional(),
  joined_at: z.string().optional(),
})
export type Member = z.infer<typeof memberSchema>

// The event record is "not shown" in the spec; these are the sandbox's fields.
export const eventSchema = z.looseObject({
  id: idSchema,
  chamber_id: z.string().optional(),
  title: z.string().optional(),
  status: z.string().optional(),
  starts_at: z.string().optional(),
  ends_at: z.string().optional(),
  location: z.string().nullable().optional(),
  created_at: z.string().optional(),
})
export type Event = z.infer<typeof eventSchema>

// GET /chambers/{id}?include=members,events embeds the related lists.
export const chamberWithIncludesSchema = chamberSchema.extend({
  members: z.array(memberSchema).optional(),
  events: z.array(eventSchema).optional(),
})

export const listMetaSchema = z.looseObject({
  current_page: z.number().int(),
  total: z.number().int().nonnegative(),
  per_page: z.number().int().positive(),
})
export type ListMeta = z.infer<typeof listMetaSchema>

export function listEnvelopeSchema<T extends z.ZodType>(record: T) {
  return z.looseObject({ data: z.array(record), meta: listMetaSchema })
}
export type ListEnvelope<T> = { data: T[]; meta: ListMeta }

// Request bodies. Unknown keys are kept so that nothing a user sends is silently dropped.
export const chamberCreateSchema = z
  .looseObject({
    name: requiredString(),
    type: oneOf(CHAMBER_TYPES),
    hq_id: z.string({ error: 'must be a string' }).nullable().optional(),
    address: addressSchema,
    status: oneOf(RECORD_STATUSES).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.type === 'subsidiary' && !body.hq_id) {
      ctx.addIssue({ code: 'custom', path: ['hq_id'], message: 'is required for a subsidiary' })
    }
    if (body.type === 'hq' && body.hq_id) {
      ctx.addIssue({ code: 'custom', path: ['hq_id'], message: 'must be empty for an hq' })
    }
  })
export type ChamberCreate = z.infer<typeof chamberCreateSchema>

export const memberCreateSchema = z.looseObject({
  name: requiredString(),
  email: z.email({
    error: (issue) =>
      issue.input === undefined || issue.input === ''
        ? 'is required'
        : 'must be a valid e-mail address',
  }),
  phone: z.string({ error: 'must be a string' }).nullable().optional(),
  membership_type: requiredString(),
  status: oneOf(RECORD_STATUSES).optional(),
})
export type MemberCreate = z.infer<typeof memberCreateSchema>

// Credentials are compared as given: no trimming.
const credential = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .min(1, 'is required')

export const tokenRequestSchema = z.object({
  client_id: credential,
  client_secret: credential,
  grant_type: z.literal('client_credentials', {
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be client_credentials'),
  }),
})
export type TokenRequest = z.infer<typeof tokenRequestSchema>

export const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().nonnegative(),
})
export type TokenResponse = z.infer<typeof tokenResponseSchema>

// Error bodies: 401 {error: invalid_client|invalid_token, error_description}, 404 {error},
// 422 {error, fields}. A foreign server may send any of them, or something else entirely.
export const oauthErrorSchema = z.looseObject({
  error: z.string(),
  error_description: z.string().optional(),
})
export const notFoundErrorSchema = z.looseObject({ error: z.string() })
export const fieldErrorsSchema = z.record(z.string(), z.array(z.string()))
export type FieldErrors = z.infer<typeof fieldErrorsSchema>
export const validationErrorSchema = z.looseObject({
  error: z.string(),
  fields: fieldErrorsSchema,
})
export const apiErrorBodySchema = z.looseObject({
  error: z.string(),
  error_description: z.string().optional(),
  fields: fieldErrorsSchema.optional(),
})
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>

// List query parameters, as the API names them. Strings in, since they come from a URL or argv.
// Bounded even without a max: past MAX_SAFE_INTEGER a number does not round-trip, and page=1e400
// came back as current_page null.
const positiveInt = (field: string, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .regex(/^\d+$/, `${field} must be a positive integer`)
    .transform(Number)
    .refine((n) => n >= 1, `${field} must be at least 1`)
    .refine((n) => n <= max, `${field} must be at most ${max}`)

export const pageParamsSchema = z.object({
  page: positiveInt('page').optional(),
  per_page: positiveInt('per_page', MAX_PER_PAGE).optional(),
})

export function sortParamSchema(resource: SortableResource) {
  const fields: readonly string[] = SORT_FIELDS[resource]
  return z
    .string()
    .refine(
      (value) => fields.includes(value.replace(/^-/, '')),
      `sort must be one of ${fields.join(', ')}, optionally with a leading -`,
    )
}

// ISO 8601 date or date-time, as accepted by filter[date_from]/filter[date_to] and --from/--to.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/
export const isoDateSchema = z
  .string()
  .refine(
    (value) => (ISO_DATE.test(value) || ISO_DATE_TIME.test(value)) && !isNaN(Date.parse(value)),
    'must be an ISO 8601 date or date-time',
  )

export function isDateOnly(value: string): boolean {
  return ISO_DATE.test(value)
}

// Turns zod issues into the API's `fields` map: {"address.city": ["must be a string"]}.
export function toFieldErrors(error: z.ZodError): FieldErrors {
  const fields: FieldErrors = {}
  for (const issue of error.issues) {
    const key = issue.path.length ? formatPath(issue.path) : 'body'
    ;(fields[key] ??= []).push(issue.message)
  }
  return fields
}

export function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) =>
      typeof part === 'number' ? `[${part}]` : i ? `.${String(part)}` : String(part),
    )
    .join('')
}
