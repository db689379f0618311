import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { writeList, writeRecord } from '../../src/io/output.js'
import { escapeForTerminal } from '../../src/io/terminal-text.js'
import { fastText, packageText, yamlText } from '../../src/io/yaml-output.js'
import fc from '../helpers/fast-check.js'
import { yamlDocuments } from '../helpers/output.js'
import { createTestIO } from '../helpers/test-io.js'
import { chambers, fromArray, outputOptions } from './fixtures.js'

const rawJson = (text: string) =>
  (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON(text)

describe('writeList yaml', () => {
  it('prints one document for a list: a sequence of the records, unknown fields kept', async () => {
    const t = createTestIO()
    const count = await writeList(t.io, fromArray(chambers()), outputOptions({ format: 'yaml' }))
    expect(count).toBe(2)
    expect(yamlDocuments(t.stdout())).toEqual([chambers()])
    expect(t.stdout()).toMatch(/^- id: c1\n {2}name: Berlin Chamber of Commerce\n/)
    expect(t.stdout()).not.toContain('---')
  })

  it('prints a stream with documents: one record a document, --- between them', async () => {
    const t = createTestIO()
    await writeList(t.io, fromArray(chambers()), outputOptions({ format: 'yaml', documents: true }))
    expect(t.stdout()).toMatch(/^id: c1\n/)
    expect(t.stdout().match(/^---$/gm)).toHaveLength(1)
    expect(yamlDocuments(t.stdout())).toEqual(chambers())
  })

  it('writes each record as it comes: the first is out before the second is asked for', async () => {
    const t = createTestIO()
    const seen: string[] = []
    async function* records() {
      for (const record of chambers()) {
        yield record
        seen.push(t.stdout())
      }
    }
    await writeList(t.io, records(), outputOptions({ format: 'yaml', documents: true }))
    expect(seen[0]).toContain('id: c1')
  })

  it('an empty list is [] in one document, and no document at all as a stream', async () => {
    const one = createTestIO()
    await writeList(one.io, fromArray([]), outputOptions({ format: 'yaml' }))
    expect(one.stdout()).toBe('[]\n')
    const stream = createTestIO()
    await writeList(stream.io, fromArray([]), outputOptions({ format: 'yaml', documents: true }))
    expect(stream.stdout()).toBe('')
  })

  it('picks --fields as json does', async () => {
    const t = createTestIO()
    await writeList(
      t.io,
      chambers(),
      outputOptions({ format: 'yaml', fields: ['id', 'address.city', 'rating'] }),
    )
    expect(parse(t.stdout())).toEqual([
      { id: 'c1', address: { city: 'Berlin' }, rating: 4.5 },
      { id: 'c2', address: { city: 'Potsdam' } },
    ])
  })
})

describe('writeRecord yaml', () => {
  it('prints one mapping document', async () => {
    const t = createTestIO()
    const [record] = chambers()
    await writeRecord(t.io, record!, outputOptions({ format: 'yaml' }))
    expect(t.stdout()).toMatch(/^id: c1\n/)
    expect(yamlDocuments(t.stdout())).toEqual([record])
  })
})

describe('yamlText', () => {
  it('quotes strings YAML 1.2 or 1.1 would read as another type', () => {
    const tricky = ['yes', 'No', 'on', '010', '0o10', '0x1F', '1e3', '1_000', '.5', '1:20']
    const more = ['null', '~', 'true', '.inf', '*x', '&x', '!x', 'a: b', '- x', '#c', '']
    for (const value of [...tricky, ...more]) {
      const text = yamlText({ value }, false)
      expect(text, value).toMatch(/^value: ["']/)
      expect(parse(text), value).toEqual({ value })
    }
  })

  it('keeps a long value on one line', () => {
    const value = 'word '.repeat(100).trim()
    expect(yamlText({ value }, false)).toBe(`value: ${value}\n`)
  })

  it('writes a number kept as raw JSON with its own digits, as JSON output does', () => {
    const record = { id: rawJson('12345678901234567890'), ratio: rawJson('1.0'), count: 3 }
    expect(JSON.stringify(record)).toBe('{"id":12345678901234567890,"ratio":1.0,"count":3}')
    expect(yamlText(record, false)).toBe('id: 12345678901234567890\nratio: 1.0\ncount: 3\n')
  })

  it('on a terminal, writes control and invisible characters as YAML escapes', () => {
    const record = { name: 'a\u001b[2Jb\u202ec\u200bd', 'k\u009b': 'x\u{e0041}' }
    const text = yamlText(record, true)
    expect(text).toBe('name: "a\\e[2Jb\\u202ec\\u200bd"\n"k\\u009b": "x\\U000e0041"\n')
    expect(parse(text)).toEqual(record)
  })

  it('in a pipe, writes such text as it is where YAML allows it', () => {
    expect(yamlText({ name: 'a\u202eb' }, false)).toBe('name: a\u202eb\n')
  })
})

// Strings a YAML reader could take for another type or for syntax, and text that must be escaped.
const special = fc.constantFrom(
  ...['yes', 'n', 'off', 'null', 'Null', '~', '010', '1e3', '0b11', '+1', '.NaN', '1:20:30'],
  ...['*a', '&a', '!a', '|', '>', '%x', '@x', '`x', '---', '...', '- a', '? a', 'a: b', 'a #b'],
  ...[' lead', 'trail ', '\t', '\n', 'a\n\nb\n', ' \n ', '\r\n', '"', "'", '\\', '\u0085'],
)
const control = fc.integer({ min: 0, max: 0x9f }).map((code) => String.fromCharCode(code))
const text = fc.oneof(
  special,
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.oneof(control, fc.constantFrom('a', ' ', ':', '#', '\u202e', '\u2028')) }),
  fc.string({ unit: 'grapheme', minLength: 150, maxLength: 300 }),
)
const key = text.filter((k) => k !== '__proto__')
const value = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('any'), { maxLength: 4 }),
    fc.dictionary(key, tie('any'), { maxKeys: 4 }),
  ),
}))
const record = fc.dictionary(key, value.any, { maxKeys: 8 })

describe('yamlText round trip', () => {
  it('parses back to the records, in a pipe and on a terminal', () => {
    fc.assert(
      fc.property(record, (generated) => {
        for (const terminal of [false, true]) {
          const text = yamlText(generated, terminal)
          expect(parse(text)).toEqual(generated)
          expect(yamlDocuments(yamlText([generated, generated], terminal))).toEqual([
            [generated, generated],
          ])
          // Nothing a terminal must not get raw: only the document's own line breaks.
          if (terminal) expect(escapeForTerminal(text, '\n')).toBe(text)
        }
      }),
      { numRuns: 300 },
    )
  })
})

// Text near what the fast path takes, and mostly taken by it: words, dates, phone numbers, and
// what is one character away from them.
const near = fc.oneof(
  { weight: 8, arbitrary: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_ .@+-]{0,12}$/) },
  { weight: 2, arbitrary: fc.stringMatching(/^\+?[0-9][0-9 ]{0,10}$/) },
  { weight: 2, arbitrary: fc.date({ noInvalidDate: true }).map((date) => date.toISOString()) },
  fc.stringMatching(/^[A-Za-z0-9_ .@+:#'"\\-]{0,12}$/),
  fc.constantFrom('2024-01-15T09:00:00Z', '2024-01-15T09:00:00+01:00', '2024-01-15', '12:30'),
  fc.constantFrom('Yes', 'NULL', 'oFF', 'Y', 'n ', 'a ', 'Null', 'nulls', 'yes!', 'On', '-a'),
  special,
)
const nearKey = fc.oneof(
  { weight: 12, arbitrary: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/) },
  fc.constantFrom('on', 'Y', 'no', 'a b', '1', '-x', 'a.b', 'x:'),
)
const nearScalar = fc.oneof(
  { weight: 6, arbitrary: near },
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
)
const nearRecord = fc.dictionary(
  nearKey,
  fc.oneof(
    { weight: 6, arbitrary: nearScalar },
    fc.dictionary(nearKey, nearScalar, { maxKeys: 3 }),
  ),
  { maxKeys: 6 },
)

describe('the fast path', () => {
  it('takes a member as the API sends it', () => {
    const member = {
      id: 'mb_000001',
      name: 'Ada Lovelace',
      email: 'ada.lovelace@berlin.example.com',
      phone: '+49 30 1234567',
      membership_type: 'standard',
      status: 'active',
      joined_at: '2024-01-15T09:00:00.000Z',
      address: { city: 'Berlin', postal_code: 10623 },
    }
    expect(fastText(member)).toBe(packageText(member, false))
    expect(fastText([member])).toBe(packageText([member], false))
  })

  it('writes byte for byte what the yaml package writes, or leaves the record to it', () => {
    let fast = 0
    fc.assert(
      fc.property(nearRecord, (generated) => {
        for (const value of [generated, [generated]]) {
          const text = fastText(value)
          if (text !== undefined) fast++
          for (const terminal of [false, true]) {
            expect(yamlText(value, terminal)).toBe(packageText(value, terminal))
          }
        }
      }),
      { numRuns: 500 },
    )
    // The property did reach the fast path.
    expect(fast).toBeGreaterThan(100)
  })
})
