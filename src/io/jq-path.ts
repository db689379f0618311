// --jq's fast path (issue 33): the filters scripts use most, answered here exactly as jq 1.8.2
// answers them, so that they never load jq's WebAssembly (compiling it is most of what --jq
// costs a process). Anything else goes to jq (jq.ts).
//
// The filters: a pipeline (`|`) of paths and `map(pipeline)`. A path is `.` alone, or `.name`,
// `."key"`, `.[N]` or `.[]`, followed by any of `.name`, `."key"`, `[N]`, `[]`; white space only
// around `|` and the whole filter. jq parses each of them the same way; what looks otherwise
// (`.a.[0]`, `.["a"]`, `.[1.5]`, a comment, `map (`) is left to jq, which then checks it too.
//
// The fast path answers only what it is sure of; it hands the whole input to jq when a step
// would be one of jq's errors (`.[0]` on an object, `.a` on a number, `.[]` on null), or the
// input is other than strict JSON (jq reads more), has a duplicate key, a lone surrogate, or
// nests deeper than an answer may. jq's messages count the lines of all it read, so a batch
// goes to jq whole or not at all.
//
// What it prints is jq -c's: keys in their order; strings escaped as jq does (\b \f \n \r \t,
// other control characters and DEL as \u00xx, the rest as they are); and a number, which a path
// never computes, as jq 1.8 prints the literal it read: in decNumber's canonical form (1.0
// stays, 1e3 is 1E+3, 0.0000001 is 1E-7, every digit of 100000000000000000001 kept).
export type PathFilter = readonly Step[]
type Step = { key: string } | { index: number } | typeof EACH | { map: PathFilter }
const EACH = 'each'

class JsonNumber {
  constructor(readonly literal: string) {}
}
type Json = null | boolean | string | JsonNumber | Json[] | Map<string, Json>

// Thrown where the fast path is not sure: jq answers instead.
const HAND_TO_JQ = Symbol('hand to jq')

// A lone surrogate cannot be written as UTF-8: jq would see a replacement character.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

// ---- the filter --------------------------------------------------------------------------

const SPACE = /[ \t\n\r]*/y
const FIELD = /\.([A-Za-z_][A-Za-z0-9_]*)/y
// A jq string of JSON's escapes (jq decodes them as JSON does), with no interpolation and no
// control character or surrogate.
// eslint-disable-next-line no-control-regex
const QUOTED = /\.("(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u(?![dD][89a-fA-F])[0-9a-fA-F]{4})*")/y
const BRACKETS = /\[(?:(-?(?:0|[1-9][0-9]{0,8}))|)\]/y
// What may follow a path: it ends there.
const PATH_END = /(?=[ \t\n\r|)]|$)/y

// Longer filters are left to jq: reading and running them here recurses once a step.
const MAX_FILTER = 1000

// The steps of a filter the fast path answers, or undefined for one jq must run.
export function pathFilter(expression: string): PathFilter | undefined {
  if (expression.length > MAX_FILTER || LONE_SURROGATE.test(expression)) return undefined
  const at = { text: expression, i: 0 }
  const steps = pipeline(at)
  return steps && at.i === expression.length ? steps : undefined
}

type Cursor = { text: string; i: number }

function eat(at: Cursor, pattern: RegExp): RegExpExecArray | undefined {
  pattern.lastIndex = at.i
  const match = pattern.exec(at.text)
  if (match) at.i = pattern.lastIndex
  return match ?? undefined
}

function pipeline(at: Cursor): Step[] | undefined {
  const steps: Step[] = []
  for (;;) {
    eat(at, SPACE)
    const term = at.text.startsWith('map(', at.i) ? mapTerm(at) : path(at)
    if (!term) return undefined
    steps.push(...term)
    eat(at, SPACE)
    if (at.text[at.i] !== '|') return steps
    at.i++
  }
}

function mapTerm(at: Cursor): Step[] | undefined {
  at.i += 'map('.length
  const body = pipeline(at)
  if (!body || at.text[at.i] !== ')') return undefined
  at.i++
  return [{ map: body }]
}

function path(at: Cursor): Step[] | undefined {
  const steps: Step[] = []
  const first = step(at, true)
  if (first) steps.push(first)
  else if (at.text[at.i] === '.' && at.text[at.i + 1] !== '.') at.i++
  else return undefined
  for (let next = step(at, false); next; next = step(at, false)) steps.push(next)
  return eat(at, PATH_END) ? steps : undefined
}

// `.name` and `."key"` anywhere; `[…]` after a path, or after the `.` that starts one.
function step(at: Cursor, first: boolean): Step | undefined {
  const field = eat(at, FIELD)
  if (field) return { key: field[1]! }
  const quoted = eat(at, QUOTED)
  if (quoted) return { key: JSON.parse(quoted[1]!) as string }
  const start = at.i
  if (first) {
    // `[…]` first is an array, not an index.
    if (!at.text.startsWith('.[', at.i)) return undefined
    at.i++
  }
  const brackets = eat(at, BRACKETS)
  if (brackets) return brackets[1] === undefined ? EACH : { index: Number(brackets[1]) }
  at.i = start
  return undefined
}

// ---- running it ----------------------------------------------------------------------------

// What jq -c would print for every JSON text of `input` (without the last line break), or
// undefined when jq must answer.
export function runPath(filter: PathFilter, input: string): string | undefined {
  try {
    const lines: string[] = []
    for (const value of jsonTexts(input)) {
      const outputs: Json[] = []
      apply(filter, 0, value, outputs)
      for (const output of outputs) lines.push(print(output))
    }
    return lines.join('\n')
  } catch (error) {
    if (error === HAND_TO_JQ) return undefined
    throw error
  }
}

function apply(steps: PathFilter, from: number, value: Json, out: Json[]): void {
  const step = steps[from]
  if (step === undefined) out.push(value)
  else if (step === EACH) for (const member of members(value)) apply(steps, from + 1, member, out)
  else if ('map' in step) {
    const mapped: Json[] = []
    for (const member of members(value)) apply(step.map, 0, member, mapped)
    apply(steps, from + 1, mapped, out)
  } else
    apply(steps, from + 1, 'key' in step ? field(value, step.key) : element(value, step.index), out)
}

function members(value: Json): Iterable<Json> {
  if (Array.isArray(value)) return value
  if (value instanceof Map) return value.values()
  throw HAND_TO_JQ
}

function field(value: Json, key: string): Json {
  if (value === null) return null
  if (value instanceof Map) return value.get(key) ?? null
  throw HAND_TO_JQ
}

// jq's index: from the end when negative, null outside the array.
function element(value: Json, index: number): Json {
  if (value === null) return null
  if (!Array.isArray(value)) throw HAND_TO_JQ
  return value[index < 0 ? value.length + index : index] ?? null
}

// ---- printing as jq -c -----------------------------------------------------------------------

// eslint-disable-next-line no-control-regex
const ESCAPED = /["\\\u0000-\u001f\u007f]/g
const SHORT: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
}

function quote(text: string): string {
  const escaped = text.replace(
    ESCAPED,
    (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
  return `"${escaped}"`
}

// Built by appending (V8 joins the pieces once, when the line is written).
function print(value: Json): string {
  if (value === null) return 'null'
  if (typeof value === 'boolean') return String(value)
  if (typeof value === 'string') return quote(value)
  if (value instanceof JsonNumber) return canonical(value.literal)
  let text = ''
  if (Array.isArray(value)) {
    for (const member of value) text += `,${print(member)}`
    return `[${text.slice(1)}]`
  }
  for (const [key, member] of value) text += `,${quote(key)}:${print(member)}`
  return `{${text.slice(1)}}`
}

const NUMBER_PARTS = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/

// decNumber's to-scientific-string of the literal: plain when the exponent is at most 0 and the
// first digit is at most 6 places after the point, else d.dddE±n.
function canonical(literal: string): string {
  const [, sign, whole, fraction = '', exponentText] = NUMBER_PARTS.exec(literal)!
  if (fraction === '' && exponentText === undefined) return literal
  const digits = (whole! + fraction).replace(/^0+(?=[0-9])/, '')
  const exponent = Number(exponentText ?? 0) - fraction.length
  const adjusted = exponent + digits.length - 1
  if (exponent <= 0 && adjusted >= -6) {
    if (exponent === 0) return sign + digits
    const point = digits.length + exponent
    return point > 0
      ? `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
      : `${sign}0.${'0'.repeat(-point)}${digits}`
  }
  const rest = digits.length > 1 ? `.${digits.slice(1)}` : ''
  return `${sign}${digits[0]}${rest}E${adjusted < 0 ? '-' : '+'}${Math.abs(adjusted)}`
}

// ---- reading strict JSON -------------------------------------------------------------------
// By character codes: a merged `--all` array can be tens of megabytes.

// Answers nest a few levels (json-text.ts refuses more than 128); deeper is left to jq.
const MAX_DEPTH = 128
// eslint-disable-next-line no-control-regex
const STRING = /"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y
// Longer literals, and exponents past decNumber's, are left to jq.
const NUMBER = /-?(?:0|[1-9][0-9]{0,999})(?:\.[0-9]{1,1000})?(?:[eE][+-]?[0-9]{1,6})?(?![0-9.eE])/y

const isWhite = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

function skipWhite(at: Cursor): void {
  while (isWhite(at.text.charCodeAt(at.i))) at.i++
}

// The JSON texts of `input`, white space between them, as jq reads them.
function* jsonTexts(input: string): Generator<Json> {
  const reader = { text: input, i: 0 }
  skipWhite(reader)
  while (reader.i < input.length) {
    const value = read(reader, 0)
    if (reader.i < input.length && !isWhite(input.charCodeAt(reader.i))) throw HAND_TO_JQ
    skipWhite(reader)
    yield value
  }
}

function read(at: Cursor, depth: number): Json {
  const c = at.text.charCodeAt(at.i)
  if (c === 0x22) return readString(at)
  if (c === 0x5b || c === 0x7b) {
    if (depth === MAX_DEPTH) throw HAND_TO_JQ
    return c === 0x5b ? readArray(at, depth + 1) : readObject(at, depth + 1)
  }
  for (const [word, value] of LITERALS) {
    if (at.text.startsWith(word, at.i)) {
      at.i += word.length
      return value
    }
  }
  const number = eat(at, NUMBER)
  if (number) return new JsonNumber(number[0])
  throw HAND_TO_JQ
}

const LITERALS: [string, Json][] = [
  ['null', null],
  ['true', true],
  ['false', false],
]

function readString(at: Cursor): string {
  const { text } = at
  const start = at.i + 1
  for (let i = start; ; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      at.i = i + 1
      return text.slice(start, i)
    }
    if (c === 0x5c) return readEscaped(at)
    // A control character, or the text's end (NaN).
    if (!(c >= 0x20)) throw HAND_TO_JQ
    // A surrogate only as the first of a pair: UTF-8 cannot hold a lone one.
    if (c >= 0xd800 && c <= 0xdfff) {
      const low = text.charCodeAt(i + 1)
      if (c > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) throw HAND_TO_JQ
      i++
    }
  }
}

function readEscaped(at: Cursor): string {
  const match = eat(at, STRING)
  // A lone surrogate, written or escaped (half of a pair escaped is one too): UTF-8 cannot hold
  // one, and jq refuses the escape.
  if (!match || LONE_SURROGATE.test(match[0])) throw HAND_TO_JQ
  const value = JSON.parse(match[0]) as string
  if (LONE_SURROGATE.test(value)) throw HAND_TO_JQ
  return value
}

// After `[` or `{`: its members, each after white space, up to the closing bracket.
function readMembers(at: Cursor, close: number, member: () => void): void {
  at.i++
  skipWhite(at)
  if (at.text.charCodeAt(at.i) === close) {
    at.i++
    return
  }
  for (;;) {
    member()
    skipWhite(at)
    const c = at.text.charCodeAt(at.i++)
    if (c === close) return
    if (c !== 0x2c) throw HAND_TO_JQ
    skipWhite(at)
  }
}

function readArray(at: Cursor, depth: number): Json[] {
  const array: Json[] = []
  readMembers(at, 0x5d, () => array.push(read(at, depth)))
  return array
}

function readObject(at: Cursor, depth: number): Map<string, Json> {
  const object = new Map<string, Json>()
  readMembers(at, 0x7d, () => {
    if (at.text.charCodeAt(at.i) !== 0x22) throw HAND_TO_JQ
    const key = readString(at)
    skipWhite(at)
    if (at.text.charCodeAt(at.i++) !== 0x3a) throw HAND_TO_JQ
    skipWhite(at)
    const size = object.size
    object.set(key, read(at, depth))
    // jq keeps the last of two values under one key: left to jq.
    if (object.size === size) throw HAND_TO_JQ
  })
  return object
}
