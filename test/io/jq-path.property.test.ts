// --jq's fast path (src/io/jq-path.ts) against jq itself (jq-wasm, jq 1.8.2): generated JSON
// texts (nested, keys in any order, every escape, Unicode, numbers of every shape, several texts
// in one input) × generated filters of its grammar and a few that only look like it. Wherever
// the fast path answers, its answer is byte for byte what jq -c prints, with no error.
import { loadJq } from 'jq-wasm'
import type { Jq } from 'jq-wasm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pathFilter, runPath } from '../../src/io/jq-path.js'
import fc from '../helpers/fast-check.js'

let jq: Jq
beforeAll(async () => {
  jq = await loadJq()
})

const RUNS = 4000
let answered = 0
let filtersAccepted = 0
afterAll(() => {
  process.stderr.write(
    `jq fast path: ${RUNS} cases, ${filtersAccepted} filters of its own, ${answered} answered\n`,
  )
})

// ---- JSON texts ----------------------------------------------------------------------------

// Names a filter can write as `.name` (jq's keywords among them), and keys only `."…"` reaches.
const NAMES = ['a', 'b', 'id', 'if', 'and', 'end', 'reduce', '__loc__', '_x1']
const KEYS = [...NAMES, '', 'a b', 'é', '😀', '"', '\\', '/', '\n', '\u0000', '\u007f', '1', '10']
const KEYS_MORE = [...KEYS, '__proto__', 'constructor', '\u2028', '\ufeff', 'A\u0301']
const CHARS = [
  ...'ab /"\\é\u2028\u007f\u0080\u00ad\ufeff\uffff\u0000\u0001\u001f\b\f\n\r\t',
  '😀',
  'A\u0301',
  // Lone surrogates: jq refuses them escaped, and UTF-8 cannot carry them raw.
  '\ud800',
  '\udc00',
]

const hex4 = (code: number, upper: boolean) => {
  const digits = code.toString(16).padStart(4, '0')
  return `\\u${upper ? digits.toUpperCase() : digits}`
}
const SHORT: Record<string, string> = { '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' }

// One character as JSON (and jq's string literals) may write it: raw where allowed, a short
// escape, or \u escapes (a pair for one beyond the BMP), in either case.
function encodeChar(ch: string, style: number): string {
  const code = ch.codePointAt(0)!
  const escaped = () =>
    [...ch]
      .flatMap((c) => (c.length === 2 ? [c.charCodeAt(0), c.charCodeAt(1)] : [c.charCodeAt(0)]))
      .map((unit) => hex4(unit, style === 3))
      .join('')
  if (ch === '"' || ch === '\\') return style < 2 ? `\\${ch}` : escaped()
  if (code < 0x20) return style < 2 && SHORT[ch] ? `\\${SHORT[ch]}` : escaped()
  if (ch === '/') return ['/', '\\/'][style] ?? escaped()
  return style < 2 ? ch : escaped()
}

const encodeString = (chars: readonly string[], styles: readonly number[]) =>
  `"${chars.map((c, i) => encodeChar(c, styles[i % styles.length]!)).join('')}"`

const styles = fc.array(fc.nat(3), { minLength: 1, maxLength: 4 })
// Mostly the names filters use, so that paths reach into the texts.
const key = fc
  .tuple(
    fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...NAMES) }, fc.constantFrom(...KEYS_MORE)),
    styles,
  )
  .map(([k, s]) => ({ key: k, text: encodeString([k], s) }))
const space = fc.constantFrom('', '', '', ' ', '\n', ' \t', '\r\n')

const NUMBERS = [
  '0',
  '-0',
  '-0.0',
  '1.0',
  '1.000',
  '1e3',
  '1E3',
  '1e+3',
  '1e-3',
  '1E-7',
  '0.000',
  '0.0000000',
  '0.000001',
  '0.0000001',
  '0.00001000',
  '12e-1',
  '1.5e2',
  '0e5',
  '0.10',
  '100000000000000000001',
  '9007199254740993',
  '123456789012345678901234567890',
  '-1.23456789012345678901234567890e-50',
  '1e1000',
  '-1e-400',
  '1e999999',
  '5e-324',
  '1.7976931348623157e308',
]
const number = fc.oneof(
  fc.integer({ min: -1000, max: 100_000 }).map(String),
  fc.constantFrom(...NUMBERS),
  fc.stringMatching(/^-?(0|[1-9][0-9]{0,24})(\.0{0,8}[0-9]{1,12})?([eE][+-]?0?[0-9]{1,3})?$/),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
)
const string = fc.tuple(fc.array(fc.constantFrom(...CHARS), { maxLength: 6 }), styles)
const jsonString = string.map(([chars, s]) => encodeString(chars, s))

const { value } = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('null', 'true', 'false'),
    number,
    jsonString,
    {
      weight: 2,
      arbitrary: fc
        .array(fc.tuple(space, tie('value'), space), { maxLength: 4 })
        .map((items) => `[${items.map(([a, v, b]) => a + v + b).join(',')}]`),
    },
    {
      weight: 3,
      arbitrary: fc
        .uniqueArray(fc.tuple(key, space, tie('value'), space), {
          maxLength: 5,
          selector: ([k]) => k.key,
        })
        .map(
          (members) => `{${members.map(([k, a, v, b]) => `${a}${k.text}:${a}${v}${b}`).join(',')}}`,
        ),
    },
  ),
}))

// One text mostly, several for a batch of -o ndjson records; now and then something jq reads
// otherwise than strict JSON (a duplicate key, a lone surrogate, a lenient literal).
const ODD = ['{"a":1,"a":2}', '"\\ud800"', '"\ud800"', 'nan', '[1,]', '00', '{}{}', '\ufeff1', '']
const input = fc.oneof(
  { weight: 8, arbitrary: value },
  {
    weight: 2,
    arbitrary: fc.array(value, { minLength: 1, maxLength: 3 }).map((v) => v.join('\n')),
  },
  { weight: 1, arbitrary: fc.constantFrom(...ODD) },
)

// ---- filters -------------------------------------------------------------------------------

// A filter's text, and its steps (a pipe joins them), from which a text that fits it is made.
type Step = { key: string } | { index: number } | 'each' | { map: readonly Step[] }
type Filter = { text: string; steps: readonly Step[] }

const index = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom(-0, 999_999_999, -999_999_999),
)
const quotedKey = fc.tuple(fc.constantFrom(...KEYS), styles).map(([k, s]) => ({
  key: k,
  text: encodeString(
    [k],
    s.map((n) => Math.max(n, 1)),
  ),
}))
const postfix: fc.Arbitrary<Filter> = fc.oneof(
  fc.constantFrom(...NAMES).map((name) => ({ text: `.${name}`, steps: [{ key: name }] })),
  quotedKey.map((q) => ({ text: `.${q.text}`, steps: [{ key: q.key }] })),
  index.map((n) => ({ text: `[${Object.is(n, -0) ? '-0' : n}]`, steps: [{ index: n }] })),
  fc.constant({ text: '[]', steps: ['each' as const] }),
)
const path: fc.Arbitrary<Filter> = fc.oneof(
  fc.constant({ text: '.', steps: [] }),
  fc.tuple(postfix, fc.array(postfix, { maxLength: 3 })).map(([first, rest]) => ({
    text:
      (first.text.startsWith('.') ? first.text : `.${first.text}`) +
      rest.map((r) => r.text).join(''),
    steps: [first, ...rest].flatMap((r) => r.steps),
  })),
)
const { filter } = fc.letrec<{ filter: Filter }>((tie) => ({
  filter: fc
    .array(
      fc.tuple(
        space,
        fc.oneof(
          { depthSize: 'small', withCrossShrink: true },
          path,
          tie('filter').map((f) => ({ text: `map(${f.text})`, steps: [{ map: f.steps }] })),
        ),
        space,
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((stages) => ({
      text: stages.map(([a, f, b]) => a + f.text + b).join('|'),
      steps: stages.flatMap(([, f]) => f.steps),
    })),
}))

// A JSON text the steps reach into (mostly: a step past an array's end finds null, and what
// follows a map is left to chance).
function fitting(steps: readonly Step[]): fc.Arbitrary<string> {
  const [step, ...rest] = steps
  if (step === undefined) return value
  if (step === 'each' || 'map' in step) {
    const member = fitting(step === 'each' ? rest : step.map)
    return fc.oneof(
      fc.array(member, { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
      fc
        .uniqueArray(key, { maxLength: 3, selector: (k) => k.key })
        .chain((keys) => fc.tuple(...keys.map((k) => member.map((v) => `${k.text}:${v}`))))
        .map((members) => `{${members.join(',')}}`),
    )
  }
  const others = fc.array(value, { maxLength: 2 })
  if ('index' in step) {
    const n = step.index
    if (Math.abs(n) > 5) return value
    const exactly = (length: number) => fc.array(value, { minLength: length, maxLength: length })
    const [before, after] = n < 0 ? [others, exactly(-n - 1)] : [exactly(n), others]
    return fc
      .tuple(before, fitting(rest), after)
      .map(([b, it, a]) => `[${[...b, it, ...a].join(',')}]`)
  }
  return fc
    .tuple(
      fc.uniqueArray(key, { maxLength: 3, selector: (k) => k.key }),
      styles,
      fitting(rest),
      fc.nat(3),
    )
    .map(([keys, s, it, at]) => {
      const members = keys.filter((k) => k.key !== step.key).map((k) => `${k.text}:null`)
      members.splice(at, 0, `${encodeString([...step.key], s)}:${it}`)
      return `{${members.join(',')}}`
    })
}

// Filters that only look like the fast path's: jq reads each otherwise, or refuses it.
const NEAR = [
  '[0]',
  '[]',
  '[.a]',
  'a',
  '"a"',
  '.[0]a',
  '.a.[0]',
  '.["a"]',
  '..',
  '.a?',
  '.[0]?',
  'map (.a)',
  '.[1.5]',
  '.[ 0 ]',
  '.a #c',
  '.a .b',
  '.[01]',
  '.[-]',
  '."\\(1)"',
  '."\\ud800"',
  '."a',
  '.a,.b',
  '.a|',
  '|.a',
  'map(.a)[0]',
  '.[]?',
  '.a[]?',
  'first(.a)',
  '.1',
  '. a',
  '$__loc__',
  '',
]
// Text made of the pieces of filters: whatever the fast path reads in it, jq reads the same.
const PIECES = [
  '.',
  '.',
  '[',
  ']',
  '|',
  ' ',
  'a',
  '_1',
  '"',
  '\\',
  '-',
  '0',
  '1',
  'map(',
  ')',
  '?',
  ',',
]
const soup = fc
  .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 10 })
  .map((p) => p.join(''))

// A text the filter reaches into, any filter over any input, and the pieces of filters.
const cases = fc.oneof(
  { weight: 5, arbitrary: filter.chain((f) => fc.tuple(fc.constant(f.text), fitting(f.steps))) },
  soup.chain((text) => {
    const steps = pathFilter(text) as readonly Step[] | undefined
    return fc.tuple(fc.constant(text), steps ? fitting(steps) : input)
  }),
  {
    weight: 4,
    arbitrary: fc.tuple(
      fc.oneof({ weight: 9, arbitrary: filter.map((f) => f.text) }, fc.constantFrom(...NEAR)),
      input,
    ),
  },
)

describe('--jq fast path', () => {
  it('answers exactly as jq -c, or leaves the input to jq', () => {
    fc.assert(
      fc.property(cases, ([expression, text]) => {
        const steps = pathFilter(expression)
        if (steps === undefined) return
        filtersAccepted++
        const fast = runPath(steps, text)
        if (fast === undefined) return
        answered++
        expect(jq.raw(text, expression, ['-c'])).toEqual({ stdout: fast, stderr: '', exitCode: 0 })
      }),
      { numRuns: RUNS },
    )
    // The property is not empty: most filters are the fast path's, and it answers many inputs.
    expect(filtersAccepted).toBeGreaterThan(RUNS * 0.5)
    expect(answered).toBeGreaterThan(RUNS * 0.2)
    // A few thousand runs of jq: seconds, many more on a busy machine.
  }, 180_000)

  it('takes every filter of its grammar that jq compiles, and refuses the look-alikes', () => {
    expect(NEAR.filter((f) => pathFilter(f) !== undefined)).toEqual([])
    // However deep: jq reads it without a stack overflow.
    expect(pathFilter(`${'map('.repeat(50_000)}.${')'.repeat(50_000)}`)).toBeUndefined()
    for (const f of ['.', '.[0].id', '.[].id', '.[] | .id', 'map(.id)', ' ."a b"[-1] ']) {
      expect(pathFilter(f), f).toBeDefined()
    }
  })
})
