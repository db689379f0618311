// The one definition of the chamber directory API's shapes. The client parses responses with
// these, the CLI validates input with them before sending, and the sandbox validates requests
// and its data file with them. Records are loose: fields a real server adds are kept.
// zod/mini rather than zod's chained API: the same schemas, a tenth of the code to load.
import * as z from 'zod/mini'
import { CHAMBER_TYPES, RECORD_STATUSES } from './constants.js'
import { isEmailAddress } from './email.js'

export * from './constants.js'
export * from './field-errors.js'

function requiredString(what = 'a string') {
  return z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : `must be ${what}`) })
    .check(z.trim(), z.minLength(1, 'is required'))
}

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, {
    error: (issue) =>
      issue.input === undefined ? 'is required' : `must be one of: ${values.join(', ')}`,
  })
}

const optionalString = z.string({ error: 'must be a string' })
const objectError = (issue: { input: unknown }) =>
  issue.input === undefined ? 'is required' : 'must be an object'

// Address structure is "not shown" in the spec; this is the sandbox's, and extra keys are kept.
// What the CLI sends has every value a string, so that postal codes keep their leading zeros.
export const addressSchema = z.looseObject(
  {
    street: z.optional(optionalString),
    city: z.optional(optionalString),
    postal_code: z.optional(optionalString),
    region: z.optional(optionalString),
    country: z.optional(optionalString),
  },
  { error: objectError },
)
// Any object: what the sandbox takes without --strict, and may hold.
const anyAddressSchema = z.looseObject({}, { error: objectError })

// Records as the sandbox stores and returns them, every field filled. The client reads answers
// with the tolerant schemas of answers.ts instead.
export const idSchema = z.string().check(z.minLength(1))

export const chamberSchema = z.looseObject({
  id: idSchema,
  name: z.optional(z.string()),
  type: z.optional(z.string()),
  hq_id: z.optional(z.nullable(z.string())),
  address: z.optional(z.nullable(anyAddressSchema)),
  status: z.optional(z.string()),
  created_at: z.optional(z.string()),
})
export type Chamber = z.infer<typeof chamberSchema>

export const memberSchema = z.looseObject({
  id: idSchema,
  chamber_id: z.optional(z.string()),
  name: z.optional(z.string()),
  email: z.optional(z.string()),
  phone: z.optional(z.nullable(z.string())),
  membership_type: z.optional(z.string()),
  status: z.optional(z.string()),
  joined_at: z.optional(z.string()),
})
export type Member = z.infer<typeof memberSchema>

// The event record is "not shown" in the spec; these are the sandbox's fields.
export const eventSchema = z.looseObject({
  id: idSchema,
  chamber_id: z.optional(z.string()),
  title: z.optional(z.string()),
  status: z.optional(z.string()),
  starts_at: z.optional(z.string()),
  ends_at: z.optional(z.string()),
  location: z.optional(z.nullable(z.string())),
  created_at: z.optional(z.string()),
})
export type Event = z.infer<typeof eventSchema>

// The sandbox's list envelope.
export type ListMeta = { current_page: number; total: number; per_page: number }
export type ListEnvelope<T> = { data: T[]; meta: ListMeta }

// Request bodies. Unknown keys are kept so that nothing a user sends is silently dropped.
function chamberCreate<A extends z.ZodMiniType>(address: A) {
  return (
    z
      .looseObject({
        name: requiredString(),
        type: oneOf(CHAMBER_TYPES),
        hq_id: z.optional(z.nullable(z.string({ error: 'must be a string' }))),
        address,
        status: z.optional(oneOf(RECORD_STATUSES)),
      })
      // An hq's hq_id is not refused: the spec requires it of a subsidiary and is silent on an
      // hq (the sandbox ignores it and says so).
      .check(
        z.superRefine((body, ctx) => {
          if (body.type === 'subsidiary' && !body.hq_id) {
            ctx.addIssue({
              code: 'custom',
              path: ['hq_id'],
              message: 'is required for a subsidiary',
            })
          }
        }),
      )
  )
}
export const chamberCreateSchema = chamberCreate(addressSchema)
export type ChamberCreate = z.infer<typeof chamberCreateSchema>
// The sandbox without --strict: the spec shows no address structure, so any values are taken.
export const chamberCreateAnyAddressSchema = chamberCreate(anyAddressSchema)

export const memberCreateSchema = z.looseObject({
  name: requiredString(),
  // RFC 5321 and RFC 6531 (email.ts): `müller@example.de` and `"a b"@example.com` are valid.
  email: z
    .string({
      error: (issue) =>
        issue.input === undefined ? 'is required' : 'must be a valid e-mail address',
    })
    .check(
      z.minLength(1, 'is required'),
      z.refine((email) => email === '' || isEmailAddress(email), {
        error: 'must be a valid e-mail address',
      }),
    ),
  phone: z.optional(z.nullable(z.string({ error: 'must be a string' }))),
  membership_type: requiredString(),
  status: z.optional(oneOf(RECORD_STATUSES)),
})
export type MemberCreate = z.infer<typeof memberCreateSchema>

const MEMBER_FIELDS = new Set(Object.keys(memberCreateSchema.shape))
const trimmedText = (value: unknown) =>
  typeof value === 'string' && value !== '' && value.trim() === value

// memberCreateSchema's answer for a member that needs nothing of it: known keys only, every
// value already as the schema gives it (text trimmed, an e-mail valid). A fixture of a million
// members is checked a member at a time, and zod's check costs more than reading the member.
// Anything else is undefined, for the schema to check and explain. Equal to the schema's on
// every value it answers (test/api/schemas.property.test.ts).
export function plainMemberCreate(value: unknown): MemberCreate | undefined {
  // A plain object, as the schema gives (JSON and YAML give no other).
  if (
    typeof value !== 'object' ||
    value === null ||
    Object.getPrototypeOf(value) !== Object.prototype
  )
    return undefined
  for (const key in value)
    if (!Object.hasOwn(value, key) || !MEMBER_FIELDS.has(key)) return undefined
  const { name, email, phone, membership_type, status } = value as Record<string, unknown>
  const statuses: readonly unknown[] = RECORD_STATUSES
  const plain =
    trimmedText(name) &&
    trimmedText(membership_type) &&
    typeof email === 'string' &&
    email !== '' &&
    isEmailAddress(email) &&
    (phone === undefined || phone === null || typeof phone === 'string') &&
    (status === undefined || statuses.includes(status))
  return plain ? (value as MemberCreate) : undefined
}

// Credentials are compared as given: no trimming.
const credential = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .check(z.minLength(1, 'is required'))

export const tokenRequestSchema = z.object({
  client_id: credential,
  client_secret: credential,
  grant_type: z.literal('client_credentials', {
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be client_credentials'),
  }),
})

// The sandbox's token answer; the client reads any server's with answers.ts' tokenAnswer.
export type TokenResponse = { access_token: string; token_type: string; expires_in: number }
