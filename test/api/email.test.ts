// The e-mail rule against published corpora (test/fixtures/email/README.md): isemail's 164
// categorised addresses and internationalised ones, with the verdict src/api/README.md gives each
// category.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { emailKey, isCommonAddress, isEmailAddress, isMailbox } from '../../src/api/email.js'
import fc from '../helpers/fast-check.js'
import { memberCreateSchema } from '../../src/api/schemas.js'

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/email/${name}`, import.meta.url), 'utf8'))

type Case = { id: number; address: string; category: string; diagnosis: string }
const isemail: Case[] = fixture('isemail-tests.json').tests
const international: { valid: string[]; invalid: string[] } = fixture('international.json')

const ACCEPTED: Record<string, boolean> = {
  ISEMAIL_VALID_CATEGORY: true,
  ISEMAIL_DNSWARN: true, // no DNS is asked
  ISEMAIL_RFC5321: true, // quoted local parts, address literals, numeric and lone TLDs
  ISEMAIL_CFWS: false, // comments and folding whitespace are header syntax, not an address
  ISEMAIL_DEPREC: false, // obsolete syntax no SMTP server takes
  ISEMAIL_RFC5322: false, // past RFC 5321's lengths, or a domain literal SMTP cannot use
  ISEMAIL_ERR: false,
}

describe('the e-mail rule', () => {
  it('has a verdict for every category of the corpus', () => {
    expect(isemail).toHaveLength(164)
    expect(new Set(isemail.map((c) => c.category))).toEqual(new Set(Object.keys(ACCEPTED)))
  })

  it.each(isemail.map((c) => [c.id, c.category, c.address, c.diagnosis] as const))(
    'isemail #%i (%s) %j: %s',
    (_id, category, address) => {
      expect(isEmailAddress(address)).toBe(ACCEPTED[category])
    },
  )

  it.each(international.valid)('accepts the internationalised %s', (address) => {
    expect(isEmailAddress(address)).toBe(true)
  })

  it.each(international.invalid)('refuses %j', (address) => {
    expect(isEmailAddress(address)).toBe(false)
  })

  it.each([
    ['a space', 'a b@example.com'],
    ['a no-break space', 'a\u00a0b@example.com'],
    ['a control character', 'a\u0085b@example.com'],
    ['a lone surrogate', 'a\ud800@example.com'],
    ['an empty domain label', 'a@example..com'],
    ['a label of 64 octets', `a@${'b'.repeat(64)}.com`],
    ['an A-label of 64 octets', `a@${'ü'.repeat(30)}${'b'.repeat(30)}.de`],
    ['a U-label with -- in the 3rd and 4th places', 'a@bü--cher.de'],
    ['a U-label with punctuation', 'a@bü_cher.de'],
    ['a general address literal', 'a@[x400:c=de]'],
    ['an IPv4 literal written wrong', 'a@[1.2.3]'],
    ['a local part of 65 octets', `${'ü'.repeat(32)}a@example.de`],
  ])('refuses %s', (_what, address) => {
    expect(isEmailAddress(address)).toBe(false)
  })

  it('keeps the message for what it refuses', () => {
    const member = { name: 'M', membership_type: 'standard' }
    const refused = memberCreateSchema.safeParse({ ...member, email: 'müller@' })
    expect(refused.error?.issues.map((i) => i.message)).toEqual(['must be a valid e-mail address'])
    const empty = memberCreateSchema.safeParse({ ...member, email: '' })
    expect(empty.error?.issues.map((i) => i.message)).toEqual(['is required'])
    for (const email of [
      'müller@example.de',
      'a%b@example.com',
      'o}_@example.org',
      'x@bücher.de',
    ]) {
      expect(memberCreateSchema.safeParse({ ...member, email }).data?.email).toBe(email)
    }
  })
})

describe('the common address', () => {
  it('is one the whole rule takes, up to the limits of length', () => {
    // Atoms and labels of every length around the limits, with what may and may not be in them.
    const part = (chars: string) =>
      fc.oneof(
        fc.array(fc.constantFrom(...chars), { maxLength: 8 }).map((a) => a.join('')),
        fc.integer({ min: 55, max: 70 }).map((n) => 'a'.repeat(n)),
      )
    const atom = fc.oneof(
      { arbitrary: part("aZ9!#$%&'*+-/=?^_`{|}~"), weight: 4 },
      { arbitrary: part('a.@"\\é '), weight: 1 },
    )
    const label = fc.oneof(
      { arbitrary: part('aZ9-'), weight: 4 },
      { arbitrary: part('a._é'), weight: 1 },
    )
    const address = fc
      .tuple(fc.array(atom, { minLength: 1, maxLength: 3 }), fc.array(label, { maxLength: 5 }))
      .map(([local, domain]) => `${local.join('.')}@${domain.join('.')}`)
    let common = 0
    fc.assert(
      fc.property(address, (text) => {
        if (!isCommonAddress(text)) return
        common++
        expect(isMailbox(text)).toBe(true)
      }),
      { numRuns: 5000 },
    )
    // The seed is fixed (test/helpers/fast-check.ts): the same addresses on every run.
    expect(common).toBeGreaterThan(200)
    expect(isCommonAddress('ada.lovelace2@ch-0001.bench.example')).toBe(true)
    expect(isCommonAddress(`${'a'.repeat(65)}@example.com`)).toBe(false)
  })
})

describe('emailKey', () => {
  it.each([
    ['the domain in any case', 'anna@Example.DE', 'anna@example.de'],
    ['the local part in any case', 'Anna@example.de', 'anna@example.de'],
    ['a U-label as its A-label', 'x@BÜCHER.de', 'x@xn--bcher-kva.de'],
    ['an A-label as itself', 'x@xn--bcher-kva.de', 'x@xn--bcher-kva.de'],
    ['decomposed Unicode as composed', 'mu\u0308ller@example.de', 'müller@example.de'],
    ['a quoted local part that needs no quotes as bare', '"anna"@example.de', 'anna@example.de'],
    ['a quoted local part that needs them as written', '"a b"@example.de', '"a b"@example.de'],
    ['text that is no address, trimmed', ' Not An Address ', 'not an address'],
  ])('compares %s', (_what, address, key) => {
    expect(emailKey(address)).toBe(key)
  })

  it('keys every address of the corpora, valid or not; the key of a valid one keys to itself', () => {
    const all = [...isemail.map((c) => c.address), ...international.valid, ...international.invalid]
    for (const address of all) {
      const key = emailKey(address)
      expect(typeof key).toBe('string')
      if (isEmailAddress(address)) expect(emailKey(key)).toBe(key)
    }
  })
})
