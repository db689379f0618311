// plainMemberCreate, the fast answer for a fixture's plain members, against the schema it stands
// in for: whatever it answers, the schema accepts and gives the same; what it leaves, the schema
// checks (and may well accept: text with spaces around it, which the schema trims).
import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it } from 'vitest'
import { memberCreateSchema, plainMemberCreate } from '../../src/api/schemas.js'
import fc from '../helpers/fast-check.js'

const text = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('Ada Lovelace', 'standard', 'x', 'Zoë', '+49 30 1') },
  fc.constantFrom('', ' ', ' Ada', 'Ada ', '\tAda', 'Ada\n', '\u00a0Ada', '\u2028'),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
)
const email = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom('ada@example.com', 'ADA@Example.COM', 'müller@example.de'),
  },
  fc.constantFrom('', 'ada', '@example.com', ' ada@example.com', '"a b"@example.com', 'a@b@c'),
  fc.emailAddress(),
  text,
)
const other = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer(),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
)
const field = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 6, arbitrary }, other)

const member = fc.record(
  {
    name: field(text),
    email: field(email),
    phone: field(text),
    membership_type: field(text),
    status: field(fc.constantFrom('active', 'inactive', 'pending', 'Active', 'gone', '')),
    extra: field(text),
    __proto__: fc.constant({ polluted: true }),
  },
  { requiredKeys: [] },
)
// Mostly of the shape export writes, where the fast path should answer.
const likely = fc.record(
  {
    name: text,
    email,
    phone: fc.option(text),
    membership_type: text,
    status: fc.constantFrom('active', 'inactive', 'pending', 'gone'),
  },
  { requiredKeys: ['name', 'email', 'membership_type'] },
)
const value = fc.oneof(
  { weight: 20, arbitrary: likely },
  { weight: 20, arbitrary: member },
  other,
  fc.string(),
  fc.array(member),
)

describe('plainMemberCreate', () => {
  it('answers only what the schema accepts, with what the schema gives', () => {
    let answered = 0
    let left = 0
    fc.assert(
      fc.property(value, (candidate) => {
        const fast = plainMemberCreate(candidate)
        const parsed = memberCreateSchema.safeParse(candidate)
        if (fast === undefined) {
          left++
          return
        }
        answered++
        expect(parsed.success).toBe(true)
        expect(isDeepStrictEqual(fast, parsed.data)).toBe(true)
      }),
      { numRuns: 3000 },
    )
    // Both sides are reached: the fast path is taken, and left.
    expect(Math.min(answered, left)).toBeGreaterThan(100)
  })

  it('answers the members export writes', () => {
    const members = [
      { name: 'Ada Allen', email: 'ada@example.com', membership_type: 'standard' },
      { name: 'Ada', email: 'ada@example.com', phone: '+49 30 1', membership_type: 'x' },
      {
        name: 'Ada',
        email: 'ada@example.com',
        phone: null,
        membership_type: 'x',
        status: 'active',
      },
    ]
    for (const m of members) expect(plainMemberCreate(m)).toBe(m)
    // Unknown keys are the fixture check's to report; untrimmed text is the schema's to trim.
    for (const m of [
      { ...members[0], memberships: 'x' },
      { ...members[0], name: 'Ada ' },
      { ...members[0], status: 'gone' },
      { ...members[0], email: 'ada' },
    ]) {
      expect(plainMemberCreate(m)).toBeUndefined()
    }
  })
})
