// The fixture's YAML without the yaml package (writer.ts): every string said to be plain is
// printed by the package as it is and read back as the same string, and every entry written
// without the package is byte for byte what the package writes.
import { describe, expect, it } from 'vitest'
import { isPlainYaml, plainYamlItem } from '../../../src/commands/export/writer.js'
import { parseYaml, stringifyYaml } from '../../../src/io/yaml.js'
import fc from '../../helpers/fast-check.js'

// Characters that YAML gives a meaning somewhere, digits, letters and marks of several scripts.
const CHARS = [
  ...' \t\n-?:,[]{}#&*!|>\'"%@`.+_~=/\\0123456789aeEfilnorstuxyzNTFY\u00e9\u00df\u0301\u00a0\u2028\u0391\u4e2d\ufeff',
]
const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 12 }).map((chars) => chars.join(''))
// Near the words and numbers YAML reads as something else.
const tricky = fc.constantFrom(
  'null',
  'Null',
  'NULL',
  'nULL',
  'true',
  'False',
  'yes',
  '~',
  '1',
  '+49',
  '-1',
  '0x1f',
  '0o17',
  '1e5',
  '1.5',
  '.inf',
  '.NaN',
  '12:30',
  '2026-01-01',
  'a: b',
  'a #b',
)
// What names, addresses and phone numbers are made of: mostly plain.
const plainish = fc
  .array(fc.constantFrom(..."aZ09  .@+_'-\u00e9\u00df\u4e2d\u00b2"), { maxLength: 12 })
  .map((chars) => chars.join(''))
const value = fc.oneof(text, plainish, tricky, fc.string({ unit: 'grapheme', maxLength: 12 }))

describe('isPlainYaml', () => {
  it.each(['Ada Lovelace', 'ada.lovelace2@berlin.example.com', '+49 30 1958199', 'standard'])(
    'is true of %j, as the package prints it',
    (plain) => {
      expect(isPlainYaml(plain)).toBe(true)
      expect(stringifyYaml(plain)).toBe(`${plain}\n`)
    },
  )

  it.each(['null', 'True', '123', '+49', '1e5', 'a: b', 'a #b', ' x', 'x ', '-x', ''])(
    'is false of %j',
    (other) => expect(isPlainYaml(other)).toBe(false),
  )

  it('is true only of strings the package prints plain and reads back', () => {
    fc.assert(
      fc.property(value, (string) => {
        if (!isPlainYaml(string)) return
        expect(stringifyYaml(string, { lineWidth: 0 })).toBe(`${string}\n`)
        expect(parseYaml(string)).toBe(string)
      }),
      { numRuns: 5000 },
    )
  })
})

describe('plainYamlItem', () => {
  it('writes an entry as the package does, or leaves it to the package', () => {
    // Mostly words as names and addresses have them, so that most entries are written here.
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9.@+'_-]{0,8}$/)
    const phrase = fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(' '))
    const field = fc.oneof({ arbitrary: phrase, weight: 9 }, { arbitrary: value, weight: 1 })
    const member = fc.record(
      { name: field, email: field, phone: field, membership_type: field },
      { requiredKeys: ['name', 'email', 'membership_type'] },
    )
    let written = 0
    fc.assert(
      fc.property(member, (entry) => {
        const text = plainYamlItem(entry)
        if (text === undefined) return
        written++
        expect(text).toBe(stringifyYaml([entry], { lineWidth: 0 }))
        // Indented as the entries of the fixture's members are.
        expect(plainYamlItem(entry, '      ')).toBe(text.replace(/^(?=.)/gm, '      '))
      }),
      { numRuns: 2000 },
    )
    // The seed is fixed (test/helpers/fast-check.ts): the same entries on every run.
    expect(written).toBeGreaterThan(200)
    const ada = { name: 'Ada Lovelace', email: 'ada@x.example', membership_type: 'standard' }
    expect(plainYamlItem(ada)).toBe(stringifyYaml([ada], { lineWidth: 0 }))
    expect(plainYamlItem({ ...ada, address: { city: 'Berlin' } })).toBeUndefined()
  })
})
