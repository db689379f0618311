// Property tests: servers we did not write. Answers are generated from the rules of the spec's
// OpenAPI document (spec/openapi.yaml in this repository, or $CHAMBERCTL_OPENAPI): its required and
// optional fields, enums and types, extra fields wherever additionalProperties allows them, any
// JSON where the spec shows no structure ("not shown"), ids of any string or number form, and
// list meta per spec, with extras, without totals, null or missing. Every read command runs in
// every output format through undici's MockAgent: it must exit 0, print every record, and print
// in JSON exactly what the server sent.
import { parse as parseCsv } from 'csv-parse/sync'
import { MockAgent } from 'undici'
import { afterAll, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main.js'
import fc from '../helpers/fast-check.js'
import { openApi as doc } from '../helpers/openapi.js'
import type { Schema } from '../helpers/openapi.js'
import { yamlDocuments } from '../helpers/output.js'
import { createTestIO } from '../helpers/test-io.js'

// Cases per command; each case runs the command in all six formats.
const RUNS = 25
let cases = 0
afterAll(() => {
  process.stderr.write(
    `tolerance properties: ${cases} generated cases, ${cases * FORMATS.length} runs\n`,
  )
})

// ---- generators from the document --------------------------------------------------------

const anyJson = fc.jsonValue({ maxDepth: 2 })
// Ids the spec calls strings; contract §9 allows any string or number form, even numbers past
// 2^53 (a bigint here, sent with all its digits).
const anyId = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.integer(),
  fc.bigInt({ min: 2n ** 53n, max: 2n ** 70n }),
)
const extraKey = fc.string({ minLength: 1, maxLength: 8 })
// The token format is not specified, but a token must fit an Authorization header to be used:
// one or more visible ASCII characters. (An empty one is refused as an unexpected answer.)
const anyToken = fc.string({
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
  minLength: 1,
  maxLength: 40,
})

function resolve(schema: Schema): Schema {
  const ref = schema.$ref
  if (typeof ref !== 'string') return schema
  return doc.components.schemas[ref.replace('#/components/schemas/', '')]!
}

// allOf is merged: ChamberWithIncludes is a Chamber with two optional lists.
function flatten(schema: Schema): Schema {
  const s = resolve(schema)
  if (!Array.isArray(s.allOf)) return s
  const parts = (s.allOf as Schema[]).map(flatten)
  return {
    type: 'object',
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})) as Schema,
    required: parts.flatMap((p) => (p.required as string[] | undefined) ?? []),
    additionalProperties: parts.every((p) => p.additionalProperties !== false),
  }
}

const notShown = (s: Schema) => typeof s.description === 'string' && /not shown/.test(s.description)

function arbitrary(schema: Schema, key?: string): fc.Arbitrary<unknown> {
  const s = flatten(schema)
  if (key === 'id') return anyId
  if (key === 'access_token') return anyToken
  if (Object.keys(s).length === 0 || (notShown(s) && s.type !== 'object')) return anyJson
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]))
  if (Array.isArray(s.type)) {
    return fc.oneof(...(s.type as string[]).map((type) => arbitrary({ ...s, type }, key)))
  }
  switch (s.type) {
    case 'null':
      return fc.constant(null)
    case 'string':
      return fc.string({ minLength: (s.minLength as number | undefined) ?? 0, maxLength: 16 })
    case 'integer':
      return fc.integer({
        min: (s.minimum as number | undefined) ?? -1e9,
        max: (s.maximum as number | undefined) ?? 1e9,
      })
    case 'array':
      return fc.array(arbitrary(s.items as Schema), { maxLength: 3 })
    default:
      return objectOf(s)
  }
}

function objectOf(s: Schema): fc.Arbitrary<Record<string, unknown>> {
  const properties = (s.properties as Record<string, Schema> | undefined) ?? {}
  const known = fc.record(
    Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, arbitrary(v, k)])),
    { requiredKeys: ((s.required as string[] | undefined) ?? []).filter((k) => k in properties) },
  )
  const extras =
    s.additionalProperties === false
      ? fc.constant({})
      : fc.dictionary(
          extraKey.filter((k) => !(k in properties) && k !== '__proto__'),
          anyJson,
          { maxKeys: 3 },
        )
  return fc.tuple(known, extras).map(([k, e]) => ({ ...e, ...k }))
}

const schema = (name: string) => doc.components.schemas[name]!
const record = {
  chambers: arbitrary(schema('Chamber')),
  members: arbitrary(schema('Member')),
  events: arbitrary(schema('Event')),
}

// How a server's meta may look: the spec's, with extras, without totals, null or absent.
type MetaMode = 'spec' | 'extras' | 'no-total' | 'null' | 'absent'
const metaMode = fc.constantFrom<MetaMode>('spec', 'extras', 'no-total', 'null', 'absent')

type Server = {
  records: unknown[]
  meta: MetaMode
  // The page size of a server that reports it in meta (it may clamp per_page to its own).
  size: number
  extras: Record<string, unknown>
}
const server = (of: fc.Arbitrary<unknown>) =>
  fc.record({
    records: fc.array(of, { maxLength: 12 }),
    meta: metaMode,
    size: fc.integer({ min: 1, max: 5 }),
    extras: fc.dictionary(
      extraKey.filter((k) => !['current_page', 'total', 'per_page', '__proto__'].includes(k)),
      anyJson,
      { maxKeys: 2 },
    ),
  })

// ---- the server's side ---------------------------------------------------------------------

// Bigints go out as JSON numbers with every digit.
const wire = (value: unknown) =>
  JSON.stringify(value, (_k, v: unknown) =>
    typeof v === 'bigint'
      ? (JSON as unknown as { rawJSON(t: string): unknown }).rawJSON(String(v))
      : v,
  )

function listAnswer(s: Server, query: URLSearchParams) {
  const page = Number(query.get('page') ?? 1)
  // A server that reports per_page may use a size of its own; one that does not honours ours.
  const reports = s.meta === 'spec' || s.meta === 'extras' || s.meta === 'no-total'
  const size = reports ? s.size : Number(query.get('per_page') ?? 20)
  const data = s.records.slice((page - 1) * size, page * size)
  const meta = { current_page: page, total: s.records.length, per_page: size }
  switch (s.meta) {
    case 'spec':
      return { data, meta }
    case 'extras':
      return { ...s.extras, data, meta: { ...s.extras, ...meta } }
    case 'no-total':
      return { data, meta: { ...s.extras, current_page: page, per_page: size } }
    case 'null':
      return { data, meta: null }
    case 'absent':
      return { data }
  }
}

const ORIGIN = 'http://127.0.0.1:9'
const FORMATS = ['json', 'ndjson', 'csv', 'tsv', 'table', 'yaml'] as const
type Format = (typeof FORMATS)[number]

type Answers = { lists: Record<string, Server>; record?: unknown; token: unknown }

async function runAll(args: string[], answers: Answers, format: Format) {
  const agent = new MockAgent()
  agent.disableNetConnect()
  const pool = agent.get(ORIGIN)
  pool
    .intercept({ path: '/v2/auth/token', method: 'POST' })
    .reply(200, wire(answers.token), { headers: { 'content-type': 'application/json' } })
    .persist()
  pool
    .intercept({ path: (p) => p.startsWith('/v2/chambers'), method: 'GET' })
    .reply(({ path: p }) => {
      const url = new URL(p, ORIGIN)
      const list =
        /\/(members|events)$/.exec(url.pathname)?.[1] ??
        (url.pathname === '/v2/chambers' ? 'chambers' : undefined)
      const body = list ? listAnswer(answers.lists[list]!, url.searchParams) : answers.record
      return {
        statusCode: 200,
        data: wire(body),
        responseOptions: { headers: { 'content-type': 'application/json' } },
      }
    })
    .persist()
  const t = createTestIO({
    env: {
      CHAMBERCTL_BASE_URL: `${ORIGIN}/v2`,
      CHAMBERCTL_CLIENT_ID: 'prop',
      CHAMBERCTL_CLIENT_SECRET: 'prop-secret',
      CHAMBERCTL_CONFIG_DIR: '/nonexistent/chamberctl-property-tests',
    },
    stdoutWidth: 160,
  })
  const flags = format === 'tsv' ? [] : ['-o', format]
  const code = await main(['node', 'chamberctl', ...args, ...flags], t.io, agent)
  await agent.close()
  return { code, stdout: t.stdout(), stderr: t.stderr() }
}

// ---- what the user must see ----------------------------------------------------------------

// The cell a table, TSV or CSV shows: null empty, scalars as text, the rest compact JSON.
function cell(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return String(value)
  }
  return wire(value)
}
const tsvCell = (value: unknown) =>
  cell(value).replace(
    /[\\\t\n\r]/g,
    (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!,
  )
// A CSV cell a spreadsheet would run as a formula is written with a leading ' (contract §4).
const csvCell = (value: unknown) => {
  const text = cell(value)
  return /^'*[=+\-@\t\r]/.test(text) ? `'${text}` : text
}
const idOf = (r: unknown) => (r as Record<string, unknown>).id

function checkList(
  format: Format,
  out: { code: number; stdout: string; stderr: string },
  expected: unknown[],
  hasId: boolean,
  all: boolean,
) {
  expect(out.code, out.stderr).toBe(0)
  const lines = out.stdout.split('\n').filter((l) => l !== '')
  switch (format) {
    case 'yaml': {
      // The records as JSON output gives them: a document each with --all, else one list.
      const records = JSON.parse(wire(expected)) as unknown[]
      expect(yamlDocuments(out.stdout)).toEqual(all ? records : [records])
      break
    }
    case 'json':
      expect(out.stdout).toBe(`${wire(expected)}\n`)
      break
    case 'ndjson':
      expect(lines).toEqual(expected.map(wire))
      break
    case 'tsv':
      expect(lines).toHaveLength(expected.length)
      if (hasId)
        expect(lines.map((l) => l.split('\t')[0])).toEqual(expected.map((r) => tsvCell(idOf(r))))
      break
    case 'csv': {
      const rows = parseCsv(out.stdout, { relax_column_count: false }) as string[][]
      expect(rows).toHaveLength(expected.length + 1)
      if (hasId) {
        expect(rows.slice(1).map((r) => r[0])).toEqual(expected.map((r) => csvCell(idOf(r))))
      }
      break
    }
    case 'table': {
      // A header and one line per record (however the table is drawn, and even a record with
      // nothing to show); an empty list prints nothing.
      const rows = out.stdout
        .split('\n')
        .slice(0, -1)
        .filter((l) => !/^[─━┌┐└┘├┤┬┴┼\s]*[─━┌┐└┘├┤┬┴┼][─━┌┐└┘├┤┬┴┼\s]*$/.test(l))
      expect(rows).toHaveLength(expected.length ? expected.length + 1 : 0)
      break
    }
  }
}

// What a page walk must yield: all records, or the first page as the server cut it.
function firstPage(s: Server): unknown[] {
  return listAnswer(s, new URLSearchParams()).data as unknown[]
}

const token = arbitrary(schema('TokenResponse'))

describe('every read command, every format, against generated spec-conformant servers', () => {
  const listCommands: [string, string[], keyof typeof record, boolean][] = [
    ['chambers list', ['chambers', 'list'], 'chambers', false],
    ['chambers list --all', ['chambers', 'list', '--all'], 'chambers', true],
    ['members list', ['members', 'list', 'c1'], 'members', false],
    ['members list --all', ['members', 'list', 'c1', '--all'], 'members', true],
    ['events list', ['events', 'list', 'c1'], 'events', false],
    ['events list --all', ['events', 'list', 'c1', '--all'], 'events', true],
  ]
  for (const [name, args, resource, all] of listCommands) {
    it(name, async () => {
      await fc.assert(
        fc.asyncProperty(server(record[resource]), token, async (s, tok) => {
          cases++
          const expected = all ? s.records : firstPage(s)
          for (const format of FORMATS) {
            const out = await runAll(args, { lists: { [resource]: s }, token: tok }, format)
            checkList(format, out, expected, resource !== 'events', all)
          }
        }),
        { numRuns: RUNS },
      )
    })
  }

  const chamberGets: [string, string[], Schema][] = [
    ['chambers get', ['chambers', 'get', 'c1'], schema('Chamber')],
    [
      'chambers get --include members,events',
      ['chambers', 'get', 'c1', '--include', 'members,events'],
      schema('ChamberWithIncludes'),
    ],
  ]
  for (const [name, args, shape] of chamberGets) {
    it(name, async () => {
      await fc.assert(
        fc.asyncProperty(arbitrary(shape), token, async (chamber, tok) => {
          cases++
          for (const format of FORMATS) {
            const out = await runAll(args, { lists: {}, record: chamber, token: tok }, format)
            expect(out.code, out.stderr).toBe(0)
            if (format === 'json' || format === 'ndjson')
              expect(out.stdout).toBe(`${wire(chamber)}\n`)
            else if (format === 'yaml') {
              expect(yamlDocuments(out.stdout)).toEqual([JSON.parse(wire(chamber))])
            } else if (format === 'csv') {
              const rows = parseCsv(out.stdout) as string[][]
              expect(rows).toHaveLength(2)
              expect(rows[1]![0]).toBe(csvCell(idOf(chamber)))
            } else expect(out.stdout).not.toBe('')
          }
        }),
        { numRuns: RUNS },
      )
    })
  }
})
