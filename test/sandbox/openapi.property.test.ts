// Property test: requests generated from the spec's OpenAPI document against the sandbox, over
// real HTTP. Every operation of both versions, with valid requests (parameters, enums and bodies
// from the document) and broken ones: no token or a wrong one, unknown chambers, bad query values,
// missing fields and wrong types in bodies, malformed JSON, other content types, oversized
// bodies. Each answer: never a 5xx; a status the document lists for that fault (or, where the
// spec shows no status for it, a 4xx named below); a body matching the document's schema for a
// documented status, and {error} for the others. Across the run every documented status of every
// operation appears at least once.
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { ValidateFunction } from 'ajv/dist/2020.js'
import formats from 'ajv-formats'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { API_VERSIONS } from '../../src/api/schemas.js'
import type { ApiVersion } from '../../src/api/schemas.js'
import { BODY_LIMIT } from '../../src/sandbox/http.js'
import fc from '../helpers/fast-check.js'
import { openApi } from '../helpers/openapi.js'
import type { Schema } from '../helpers/openapi.js'
import { basicAuth, credentialsBody, openSandbox } from './helpers.js'
import type { Rec, TestSandbox } from './helpers.js'

// Enough runs for every documented status to turn up (checked below), few enough for ~2 s.
const RUNS = 500

// ---- the document: operations, their statuses and the schemas of their answers ---------------

type Operation = {
  id: string
  method: string
  path: string
  versions: ApiVersion[]
  statuses: string[]
  parameters: Schema[]
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete']
const versionsOf = (servers: { url: string }[]) =>
  servers.map((s) => s.url.replace(/^\//, '') as ApiVersion)

const resolveRef = (value: Schema): Schema => {
  const ref = value.$ref
  if (typeof ref !== 'string') return value
  const [, , group, name] = ref.split('/')
  return (openApi.components[group!] as Record<string, Schema>)[name!]!
}

const operations: Operation[] = Object.entries(openApi.paths).flatMap(([path, item]) =>
  METHODS.filter((m) => m in item).map((method) => {
    const op = item[method] as Schema
    return {
      id: op.operationId as string,
      method: method.toUpperCase(),
      path,
      versions: versionsOf((op.servers as { url: string }[] | undefined) ?? openApi.servers),
      statuses: Object.keys(op.responses as Schema),
      parameters: [
        ...((item.parameters as Schema[]) ?? []),
        ...((op.parameters as Schema[]) ?? []),
      ].map(resolveRef),
    }
  }),
)
const operation = (id: string) => operations.find((op) => op.id === id)!
const parameterSchema = (op: Operation, name: string) =>
  op.parameters.find((p) => p.name === name)?.schema as Schema | undefined
const enumOf = (schema: Schema | undefined) => (resolveRef(schema ?? {}).enum ?? []) as string[]
const itemsOf = (schema: Schema | undefined) => enumOf(schema?.items as Schema | undefined)

// The document's refs point into components; ajv gets components as one schema of its own.
const ajv = new Ajv2020({ allErrors: true, strict: false })
formats.default(ajv)
const toAjvRefs = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value).replaceAll('"#/components/', '"openapi#/components/'))
ajv.addSchema({ $id: 'openapi', components: toAjvRefs(openApi.components) })

const validators = new Map<string, ValidateFunction>()
function validatorFor(op: Operation, status: string): ValidateFunction {
  const key = `${op.id} ${status}`
  let validate = validators.get(key)
  if (!validate) {
    const item = openApi.paths[op.path]![op.method.toLowerCase()] as Schema
    const response = resolveRef((item.responses as Record<string, Schema>)[status]!)
    const content = response.content as Record<string, { schema: Schema }>
    validate = ajv.compile(toAjvRefs(content['application/json']!.schema) as Schema)
    validators.set(key, validate)
  }
  return validate
}

// ---- requests -----------------------------------------------------------------------------

type Auth = 'own' | 'none' | 'garbage' | 'other-version'

type Request = {
  fault: string
  chamber?: string
  query?: [string, string][]
  auth?: Auth
  // JSON to send; `email` gets a serial prefix when freshEmail is set (one address per chamber).
  json?: unknown
  raw?: { body: string; type: string }
  basic?: 'right' | 'wrong'
  freshEmail?: boolean
  // The statuses this request may be answered with.
  expect: readonly number[]
}

// Statuses for failures the spec shows none for (§7: "Status codes and bodies for other failures
// ... not shown"): bad query values, malformed JSON and the like. The sandbox's are 400 and 422
// (ARCHITECTURE.md); 413 for an oversized body and 415 for another content type.
const INVALID_QUERY: readonly number[] = [400, 422]

const KNOWN = {
  chambers: [] as string[],
  hqs: [] as string[],
}
const unknownId = fc.string({ minLength: 1, maxLength: 10 }).map((s) => `no-such-${s}`)
// Chambers are read from the sandbox in beforeAll, so they are picked when a case is generated.
const chamberId = fc.constant(null).chain(() => fc.constantFrom(...KNOWN.chambers))
const hqId = fc.constant(null).chain(() => fc.constantFrom(...KNOWN.hqs))

const badAuth = fc.constantFrom<Auth>('none', 'garbage', 'other-version')
// Names and membership types with a visible character: the sandbox trims them and refuses a
// blank one as missing (the spec's "missing name"), which the document's minLength: 1 allows.
const text = fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim() !== '')
// A value of another type than the document's for the field: the address is an object, the
// others strings. No null for phone: the sandbox takes it as no phone, more lenient than the
// document (a string), which is no fault of a stand-in.
const WRONG_TYPES: Record<string, unknown[]> = {
  address: [5, true, null, [], 'x'],
  phone: [5, true, [], {}],
}
const wrongType = (field: string) =>
  fc.constantFrom(...(WRONG_TYPES[field] ?? [5, true, null, [], {}, ['x']]))
const anyJson = fc.jsonValue({ maxDepth: 2 })

const isoDate = fc
  .date({
    min: new Date('2020-01-01T00:00:00Z'),
    max: new Date('2031-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .chain((d) => fc.constantFrom(d.toISOString().slice(0, 10), d.toISOString()))

// page and per_page within the document's bounds.
const paging = fc.record(
  { page: fc.integer({ min: 1, max: 4 }), per_page: fc.integer({ min: 1, max: 100 }) },
  { requiredKeys: [] },
)

// A valid query for a list operation: paging, and in v2 its filters and sort from the document.
function listQuery(op: Operation, version: ApiVersion): fc.Arbitrary<[string, string][]> {
  const filter = version === 'v2' ? parameterSchema(op, 'filter') : undefined
  const filters = Object.entries((filter?.properties as Record<string, Schema>) ?? {}).map(
    ([name, schema]) => {
      const values = enumOf(schema)
      const value = values.length ? fc.constantFrom(...values) : isoDate
      return fc.option(
        value.map((v): [string, string] => [`filter[${name}]`, v]),
        { nil: undefined },
      )
    },
  )
  const sorts = version === 'v2' ? enumOf(parameterSchema(op, 'sort')) : []
  const sort = sorts.length
    ? fc.option(fc.constantFrom(...sorts), { nil: undefined })
    : fc.constant(undefined)
  return fc
    .tuple(paging, fc.tuple(...filters), sort)
    .map(([page, picked, sorted]) => [
      ...Object.entries(page).map(([k, v]): [string, string] => [k, String(v)]),
      ...picked.filter((p) => p !== undefined),
      ...(sorted ? [['sort', sorted] as [string, string]] : []),
    ])
}

const badQuery: fc.Arbitrary<[string, string][]> = fc.constantFrom<[string, string][]>(
  [['page', '0']],
  [['page', '-1']],
  [['page', 'abc']],
  [['page', '1.5']],
  [['per_page', '0']],
  [['per_page', '101']],
  [['per_page', 'x']],
)

// v2's filter, sort and include sent to v1: the spec lets a v1 server ignore them (200); the
// sandbox refuses them with 422 until issue 34 item 2 (another branch) makes it ignore them
// without --strict. Both are accepted here; 422 is not a status the document lists for these
// operations, so tighten to [200] once that branch is merged.
const V1_IGNORES_V2_PARAMETERS: readonly number[] = [200, 422]

// The faults every operation can be sent with, besides its own.
function common(op: Operation): fc.Arbitrary<Request>[] {
  const chamberScoped = op.path.includes('{')
  return [
    fc.record({
      fault: fc.constant('auth'),
      auth: badAuth,
      chamber: chamberScoped ? chamberId : fc.constant(undefined),
      expect: fc.constant([401]),
    }),
    ...(chamberScoped
      ? [
          fc.record({
            fault: fc.constant('unknown chamber'),
            chamber: unknownId,
            expect: fc.constant([404]),
          }),
        ]
      : []),
  ]
}

// Bodies: what a create operation's schema allows, and each way of breaking it.
// Extra fields: the document allows them (no additionalProperties: false) and the sandbox keeps
// them, of any JSON value. Left out: the names the sandbox refuses although the document allows
// them (server-assigned fields, and `status` outside its enum: ARCHITECTURE.md "Creates"; stricter
// than the spec, reported with issue 34 item 5), and the body's own fields.
const NOT_EXTRA = ['id', 'created_at', 'chamber_id', 'joined_at', 'status']
const extras = (fields: string[]) =>
  fc.dictionary(
    fc.string({ minLength: 1, maxLength: 8 }).filter((k) => ![...NOT_EXTRA, ...fields].includes(k)),
    anyJson,
    { maxKeys: 2 },
  )
const withExtras = <T extends Record<string, unknown>>(body: fc.Arbitrary<T>, fields: string[]) =>
  fc.tuple(body, extras(fields)).map(([own, extra]) => ({ ...extra, ...own }))

// Address structure is not shown in the spec (any object); the sandbox wants its known fields
// as strings (ARCHITECTURE.md "Creates"; reported with issue 34 item 5), so those are strings
// here, and extra keys any JSON.
const ADDRESS_FIELDS = ['street', 'city', 'postal_code', 'region', 'country']
const address = withExtras(
  fc.record(Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, fc.string({ maxLength: 12 })])), {
    requiredKeys: [],
  }),
  ADDRESS_FIELDS,
)
const CHAMBER_FIELDS = ['name', 'type', 'hq_id', 'address']
const chamberBody = withExtras(
  fc.oneof(
    fc.record({ name: text, type: fc.constant('hq'), address }),
    fc.record({ name: text, type: fc.constant('subsidiary'), hq_id: hqId, address }),
  ),
  CHAMBER_FIELDS,
)
const localPart = fc.stringMatching(/^[a-z0-9]{1,10}(\.[a-z0-9]{1,6})?$/)
const MEMBER_FIELDS = ['name', 'email', 'phone', 'membership_type']
const memberBody = withExtras(
  fc.record(
    {
      name: text,
      email: localPart.map((l) => `${l}@example.com`),
      // Allowed values not shown in the spec.
      membership_type: text,
      phone: fc.string({ maxLength: 20 }),
    },
    { requiredKeys: ['name', 'email', 'membership_type'] },
  ),
  MEMBER_FIELDS,
)

// One field of a valid body broken: dropped when required, or of the wrong type.
function broken<T extends Record<string, unknown>>(
  body: fc.Arbitrary<T>,
  required: string[],
  fields: string[],
): fc.Arbitrary<unknown> {
  return body.chain((valid) =>
    fc.oneof(
      fc.constantFrom(...required).map((field) => {
        const copy: Record<string, unknown> = { ...valid }
        delete copy[field]
        return copy
      }),
      fc
        .constantFrom(...fields.filter((k) => k in valid && k !== 'hq_id'))
        .chain((field) => wrongType(field).map((value): [string, unknown] => [field, value]))
        .map(([field, value]) => ({ ...valid, [field]: value })),
    ),
  )
}

// Bodies outside JSON or past the limit: statuses the spec shows none for.
const rawBodies = fc.constantFrom(
  { fault: 'malformed JSON', raw: { body: '{"name":', type: 'application/json' }, expect: [400] },
  { fault: 'not JSON', raw: { body: 'name=x', type: 'text/plain' }, expect: [415] },
  {
    fault: 'oversized body',
    raw: { body: JSON.stringify({ name: 'x'.repeat(BODY_LIMIT) }), type: 'application/json' },
    expect: [413],
  },
)

function requests(op: Operation, version: ApiVersion): fc.Arbitrary<Request> {
  switch (op.id) {
    case 'issueToken':
      return fc.oneof(
        fc.record({
          fault: fc.constant('none'),
          basic: fc.constantFrom(undefined, 'right' as const),
          expect: fc.constant([200]),
        }),
        fc.record({
          fault: fc.constant('wrong secret'),
          basic: fc.constant('wrong' as const),
          expect: fc.constant([401]),
        }),
        fc.record({
          fault: fc.constant('client credentials'),
          json: fc.constantFrom(
            {
              grant_type: 'client_credentials',
              client_id: 'sandbox-client',
              client_secret: 'nope',
            },
            {
              grant_type: 'client_credentials',
              client_id: 'nobody',
              client_secret: 'sandbox-secret',
            },
            { grant_type: 'client_credentials' },
          ),
          expect: fc.constant([401]),
        }),
        // An unsupported grant type: RFC 6749 §5.2 answers 400; the spec shows no status.
        fc.record({
          fault: fc.constant('grant type'),
          json: anyJson
            .filter((g) => g !== 'client_credentials')
            .map((g) => ({
              client_id: 'sandbox-client',
              client_secret: 'sandbox-secret',
              grant_type: g,
            })),
          expect: fc.constant([400]),
        }),
        rawBodies,
      )
    case 'listChambers':
    case 'listMembers':
    case 'listEvents':
      return fc.oneof(
        fc
          .record({
            fault: fc.constant('none'),
            chamber: op.path.includes('{') ? chamberId : fc.constant(undefined),
            query: listQuery(op, version),
          })
          .map((r) => ({ ...r, expect: expectForDates(r.query) })),
        fc.record({
          fault: fc.constant('bad query'),
          chamber: op.path.includes('{') ? chamberId : fc.constant(undefined),
          query: badQuery,
          expect: fc.constant(INVALID_QUERY),
        }),
        ...(version === 'v1'
          ? [
              fc.record({
                fault: fc.constant('v2 parameter on v1'),
                chamber: op.path.includes('{') ? chamberId : fc.constant(undefined),
                query: listQuery(op, 'v2').filter((q) =>
                  q.some(([k]) => k === 'sort' || k.startsWith('filter[')),
                ),
                expect: fc.constant(V1_IGNORES_V2_PARAMETERS),
              }),
            ]
          : []),
        ...common(op),
      )
    case 'getChamber': {
      const includes = itemsOf(parameterSchema(op, 'include'))
      const include = fc
        .subarray(includes, { minLength: 1 })
        .map((names): [string, string][] => [['include', names.join(',')]])
      return fc.oneof(
        fc.record({
          fault: fc.constant('none'),
          chamber: chamberId,
          query: version === 'v2' ? fc.option(include, { nil: undefined }) : fc.constant(undefined),
          expect: fc.constant([200]),
        }),
        version === 'v2'
          ? fc.record({
              fault: fc.constant('bad query'),
              chamber: chamberId,
              query: fc.constantFrom<[string, string][]>(
                [['include', 'bogus']],
                [['include', 'members,owners']],
              ),
              expect: fc.constant(INVALID_QUERY),
            })
          : fc.record({
              fault: fc.constant('v2 parameter on v1'),
              chamber: chamberId,
              query: include,
              expect: fc.constant(V1_IGNORES_V2_PARAMETERS),
            }),
        ...common(op),
      )
    }
    case 'createChamber':
      return fc.oneof(
        fc.record({ fault: fc.constant('none'), json: chamberBody, expect: fc.constant([201]) }),
        fc.record({
          fault: fc.constant('invalid body'),
          json: fc.oneof(
            broken(chamberBody, ['name', 'type', 'address'], CHAMBER_FIELDS),
            // A subsidiary without hq_id, or naming no chamber there is.
            chamberBody.map((b) => ({ ...b, type: 'subsidiary', hq_id: undefined })),
            chamberBody.chain((b) =>
              unknownId.map((id) => ({ ...b, type: 'subsidiary', hq_id: id })),
            ),
            fc.constantFrom([], 'x', 5, null),
          ),
          expect: fc.constant([422]),
        }),
        // An HQ sent with an hq_id: the spec requires it only for a subsidiary, so an
        // independent implementation answers 201; the sandbox answers 422 until issue 34 item 2
        // (another branch) ignores it without --strict. Both are accepted here.
        fc.record({
          fault: fc.constant('hq with hq_id'),
          json: chamberBody.chain((b) => hqId.map((id) => ({ ...b, type: 'hq', hq_id: id }))),
          expect: fc.constant([201, 422]),
        }),
        rawBodies,
        ...common(op),
      )
    case 'addMember':
      return fc.oneof<fc.Arbitrary<Request>[]>(
        fc.record({
          fault: fc.constant('none'),
          chamber: chamberId,
          json: memberBody,
          freshEmail: fc.constant(true),
          expect: fc.constant([201]),
        }),
        fc.record({
          fault: fc.constant('invalid body'),
          chamber: chamberId,
          json: fc.oneof(
            broken(memberBody, ['name', 'email', 'membership_type'], MEMBER_FIELDS),
            // Addresses no rule accepts (no @, a space, an empty part).
            memberBody.chain((b) =>
              fc
                .constantFrom('no-at-sign', 'a b@example.com', '@example.com', 'a@')
                .map((email) => ({ ...b, email })),
            ),
          ),
          expect: fc.constant([422]),
        }),
        fc
          .record({ fault: fc.constant('raw'), chamber: chamberId })
          .chain((r) => rawBodies.map((raw) => ({ ...r, ...raw }))),
        ...common(op),
      )
    default:
      throw new Error(
        `no requests for ${op.id}: the document has an operation this test does not know`,
      )
  }
}

// date_from after date_to: the spec does not say; the sandbox answers 422 (an empty page would
// be as right).
function expectForDates(query: [string, string][]): readonly number[] {
  const from = query.find(([k]) => k === 'filter[date_from]')?.[1]
  const to = query.find(([k]) => k === 'filter[date_to]')?.[1]
  return from && to && Date.parse(from) > Date.parse(to) ? [200, 422] : [200]
}

const cases = fc
  .constantFrom(...API_VERSIONS)
  .chain((version) =>
    fc
      .constantFrom(...operations.filter((op) => op.versions.includes(version)))
      .chain((op) => requests(op, version).map((request) => ({ version, id: op.id, request }))),
  )

// ---- the run --------------------------------------------------------------------------------

let env: TestSandbox
const tokens = {} as Record<ApiVersion, string>
let serial = 0
beforeAll(async () => {
  env = await openSandbox()
  for (const version of API_VERSIONS) tokens[version] = await env.api(version).accessToken()
  const chambers = await env.api('v2').listAll('/chambers')
  KNOWN.chambers = chambers.map((c) => c.id)
  KNOWN.hqs = chambers.filter((c: Rec) => c.type === 'hq').map((c) => c.id)
})
afterAll(() => env?.close())

async function send(version: ApiVersion, op: Operation, request: Request) {
  const path = op.path.replace(/\{[^}]+\}/, encodeURIComponent(request.chamber ?? ''))
  const url = new URL(`${env.sandbox.baseUrl(version)}${path}`)
  for (const [key, value] of request.query ?? []) url.searchParams.append(key, value)
  const headers: Record<string, string> = {}
  const auth = request.auth ?? 'own'
  if (op.id !== 'issueToken' && auth !== 'none') {
    const other = version === 'v1' ? 'v2' : 'v1'
    headers.authorization = `Bearer ${{ own: tokens[version], garbage: 'not-a-token', 'other-version': tokens[other] }[auth]}`
  }
  let body: string | undefined
  if (request.raw) {
    body = request.raw.body
    headers['content-type'] = request.raw.type
  } else if (op.method === 'POST') {
    let json = request.json
    if (op.id === 'issueToken' && json === undefined) {
      const creds = credentialsBody(env.sandbox)
      if (request.basic) {
        headers.authorization = basicAuth(
          creds.client_id!,
          request.basic === 'right' ? creds.client_secret! : 'wrong',
        )
        json = { grant_type: 'client_credentials' }
      } else json = creds
    }
    if (request.freshEmail)
      json = { ...(json as Rec), email: `${++serial}.${(json as Rec).email as string}` }
    body = JSON.stringify(json)
    headers['content-type'] = 'application/json'
  }
  const response = await fetch(url, { method: op.method, headers, body })
  const text = await response.text()
  return { status: response.status, type: response.headers.get('content-type'), text }
}

it(`answers every generated request as the OpenAPI document says (${RUNS} runs)`, async () => {
  const seen = new Set<string>()
  await fc.assert(
    fc.asyncProperty(cases, async ({ version, id, request }) => {
      const op = operation(id)
      const answer = await send(version, op, request)
      const what = `${op.method} /${version}${op.path} (${op.id}, fault: ${request.fault}) answered ${answer.status}: ${answer.text.slice(0, 300)}`
      expect(answer.status, what).toBeLessThan(500)
      expect(request.expect, what).toContain(answer.status)
      expect(answer.type, what).toMatch(/^application\/json\b/)
      const body = JSON.parse(answer.text) as unknown
      if (op.statuses.includes(String(answer.status))) {
        const validate = validatorFor(op, String(answer.status))
        expect(validate(body) ? [] : validate.errors, what).toEqual([])
      } else {
        expect(body, what).toMatchObject({ error: expect.any(String) })
      }
      seen.add(`${version} ${op.id} ${answer.status}`)
    }),
    { numRuns: RUNS },
  )
  const documented = operations.flatMap((op) =>
    op.versions.flatMap((version) => op.statuses.map((status) => `${version} ${op.id} ${status}`)),
  )
  expect(documented.filter((d) => !seen.has(d))).toEqual([])
  // About 2 s alone; the limit only catches a hang, with room for a loaded machine.
}, 60_000)
