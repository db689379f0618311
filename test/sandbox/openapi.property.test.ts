// Property test: requests generated from the spec's OpenAPI document against the sandbox, over
// real HTTP. Every operation of both versions, with valid requests (parameters, enums and bodies
// from the document) and broken ones: no token or a wrong one, unknown chambers, bad query values,
// missing fields and wrong types in bodies, malformed JSON, other content types, oversized
// bodies. Each answer: never a 5xx; a status the document lists for that fault (or, where the
// spec shows no status for it, a 4xx named below); a body matching the document's schema for a
// documented status, and {error} for the others. Where the spec is silent (the sandbox's manual,
// "Where the spec is silent") the sandbox answers as an independent implementation would: an HQ's
// hq_id, server-assigned fields in a create body, v2's parameters on v1 are ignored, each named in
// a Warning header, which no other answer has; address values of any JSON type and extra fields
// are stored as sent. (--strict's 422s for those: test/sandbox/strict.test.ts.) Across the run
// every documented status of every operation appears at least once.
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
// E-mail addresses: the document's only `format: email` is on MemberCreate, the request body,
// which this test sends and does not validate; the Member answer's email is a plain string, so
// ajv's ASCII-only email format never judges an internationalised address here. That format is
// narrower than the spec's prose ("a valid e-mail address") and the contract (§8: RFC 5322 and
// RFC 6531, `müller@example.de` is valid): the sandbox follows the contract (src/api/email.ts).
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
  // What the sandbox ignores in it (a field or query parameter each), named in its Warning header.
  ignored?: readonly string[]
  // The answer is a list with no records.
  empty?: boolean
}

// Statuses for failures the spec shows none for (§7: "Status codes and bodies for other failures
// ... not shown"): bad query values, malformed JSON and the like. The sandbox's are 400 and 422
// (its manual); 413 for an oversized body and 415 for another content type.
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

// v2's filter, sort and include sent to v1: the spec lets a v1 server ignore them, and the
// sandbox does, answering 200 with a Warning naming each.
const v2Parameters = (query: [string, string][]) =>
  query.map(([k]) => k).filter((k) => k === 'sort' || k === 'include' || k.startsWith('filter['))

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
// them, of any JSON value. Left out of extras: the server-assigned fields (added to valid bodies
// below, where they are ignored), `status` (outside its enum the sandbox refuses it, stricter than
// the spec: the manual's table says why) and the body's own fields.
const SERVER_FIELDS = { chamber: ['id', 'created_at'], member: ['id', 'chamber_id', 'joined_at'] }
const NOT_EXTRA = [...new Set([...SERVER_FIELDS.chamber, ...SERVER_FIELDS.member, 'status'])]
const extras = (fields: string[]) =>
  fc.dictionary(
    fc.string({ minLength: 1, maxLength: 8 }).filter((k) => ![...NOT_EXTRA, ...fields].includes(k)),
    anyJson,
    { maxKeys: 2 },
  )
const withExtras = <T extends Record<string, unknown>>(body: fc.Arbitrary<T>, fields: string[]) =>
  fc.tuple(body, extras(fields)).map(([own, extra]) => ({ ...extra, ...own }))

// Address structure is not shown in the spec (any object): its known fields and extra keys of any
// JSON value, stored as sent.
const ADDRESS_FIELDS = ['street', 'city', 'postal_code', 'region', 'country']
const address = withExtras(
  fc.record(
    Object.fromEntries(
      ADDRESS_FIELDS.map((f) => [f, fc.oneof(fc.string({ maxLength: 12 }), anyJson)]),
    ),
    { requiredKeys: [] },
  ),
  ADDRESS_FIELDS,
)
const CHAMBER_FIELDS = ['name', 'type', 'hq_id', 'address']
// Valid bodies without what the sandbox ignores, for breaking one field at a time.
const chamberBody = withExtras(
  fc.oneof(
    fc.record({ name: text, type: fc.constant('hq'), address }),
    fc.record({ name: text, type: fc.constant('subsidiary'), hq_id: hqId, address }),
  ),
  CHAMBER_FIELDS,
)
// Addresses by RFC 5321 and RFC 6531 (contract §8): dot-atoms of every atext character, letters
// beyond ASCII, quoted local parts; ASCII and internationalised domains. send() makes each one
// fresh with a label of its own in front of the domain.
const atom = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]{1,10}$/)
const localPart = fc.oneof(
  fc.tuple(atom, fc.option(atom, { nil: undefined })).map((a) => a.filter(Boolean).join('.')),
  fc.constantFrom('müller', 'δοκιμή', '用户', 'josé.garcía', '"a b"', '""', '"a\\"b"'),
)
const domain = fc.constantFrom('example.com', 'bücher.de', '例え.テスト', 'io')
const MEMBER_FIELDS = ['name', 'email', 'phone', 'membership_type']
const memberBody = withExtras(
  fc.record(
    {
      name: text,
      email: fc.tuple(localPart, domain).map(([l, d]) => `${l}@${d}`),
      // Allowed values not shown in the spec.
      membership_type: text,
      phone: fc.string({ maxLength: 20 }),
    },
    { requiredKeys: ['name', 'email', 'membership_type'] },
  ),
  MEMBER_FIELDS,
)

// What the sandbox ignores, added to a valid body: server-assigned fields, sent with values no
// server assigns, and on an HQ without one an hq_id (an empty or null one is no hq_id: no warning).
const sentValue = fc.oneof(
  anyJson.filter((v) => typeof v !== 'string'),
  fc.string({ maxLength: 8 }).map((s) => `sent:${s}`),
)
function withIgnored<T extends Record<string, unknown>>(
  body: fc.Arbitrary<T>,
  serverFields: string[],
): fc.Arbitrary<{ json: Record<string, unknown>; ignored: string[] }> {
  const server = fc.record(Object.fromEntries(serverFields.map((f) => [f, sentValue])), {
    requiredKeys: [],
  })
  const hq = fc.option(fc.oneof(hqId, unknownId, fc.constantFrom('', null)), { nil: undefined })
  return fc.tuple(body, server, hq).map(([own, assigned, hq_id]) => {
    const json: Record<string, unknown> = { ...own, ...assigned }
    if (own.type === 'hq' && !('hq_id' in own) && hq_id !== undefined) json.hq_id = hq_id
    const ignored = Object.keys(assigned)
    if (own.type === 'hq' && json.hq_id) ignored.push('hq_id')
    return { json, ignored }
  })
}

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
            expect: fc.constant([200]),
          })
          .map((r) => ({ ...r, ...datesReversed(r.query) })),
        ...(version === 'v2' && op.id === 'listEvents'
          ? [
              fc
                .record({
                  fault: fc.constant('dates reversed'),
                  chamber: chamberId,
                  query: fc
                    .tuple(isoDate, isoDate)
                    .map(([from, to]): [string, string][] => [
                      ['filter[date_from]', from],
                      ['filter[date_to]', to],
                    ])
                    .filter((q) => datesReversed(q).empty === true),
                  expect: fc.constant([200]),
                })
                .map((r) => ({ ...r, ...datesReversed(r.query) })),
            ]
          : []),
        fc.record({
          fault: fc.constant('bad query'),
          chamber: op.path.includes('{') ? chamberId : fc.constant(undefined),
          query: badQuery,
          expect: fc.constant(INVALID_QUERY),
        }),
        ...(version === 'v1'
          ? [
              fc
                .record({
                  fault: fc.constant('v2 parameter on v1'),
                  chamber: op.path.includes('{') ? chamberId : fc.constant(undefined),
                  query: listQuery(op, 'v2').filter((q) => v2Parameters(q).length > 0),
                  expect: fc.constant([200]),
                })
                .map((r) => ({ ...r, ignored: v2Parameters(r.query) })),
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
              expect: fc.constant([200]),
              ignored: fc.constant(['include']),
            }),
        ...common(op),
      )
    }
    case 'createChamber':
      return fc.oneof(
        withIgnored(chamberBody, SERVER_FIELDS.chamber).map((r) => ({
          ...r,
          fault: 'none',
          expect: [201],
        })),
        // An hq with an hq_id, which the spec requires of a subsidiary only.
        withIgnored(
          chamberBody.chain((b) =>
            fc.oneof(hqId, unknownId).map((hq_id) => ({ ...b, type: 'hq', hq_id })),
          ),
          SERVER_FIELDS.chamber,
        ).map((r) => ({ ...r, fault: 'hq with hq_id', expect: [201] })),
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
        rawBodies,
        ...common(op),
      )
    case 'addMember':
      // Valid bodies weigh more: each tries another form of e-mail address.
      return fc.oneof<fc.MaybeWeightedArbitrary<Request>[]>(
        {
          weight: 3,
          arbitrary: fc
            .tuple(chamberId, withIgnored(memberBody, SERVER_FIELDS.member))
            .map(([chamber, r]) => ({
              ...r,
              fault: 'none',
              chamber,
              freshEmail: true,
              expect: [201],
            })),
        },
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

// date_to before date_from: the spec does not say; the sandbox answers an empty page and says so.
// A date_to that is a day takes in the whole day.
const DAY = 86_400_000
function datesReversed(query: [string, string][]): Pick<Request, 'ignored' | 'empty'> {
  const from = query.find(([k]) => k === 'filter[date_from]')?.[1]
  const to = query.find(([k]) => k === 'filter[date_to]')?.[1]
  if (!from || !to) return {}
  const end = Date.parse(to) + (/^\d{4}-\d{2}-\d{2}$/.test(to) ? DAY - 1 : 0)
  return Date.parse(from) > end ? { ignored: ['filter[date_to]'], empty: true } : {}
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
    if (request.freshEmail) {
      const email = (json as Rec).email as string
      const at = email.lastIndexOf('@')
      json = {
        ...(json as Rec),
        email: `${email.slice(0, at)}@n${++serial}.${email.slice(at + 1)}`,
      }
    }
    body = JSON.stringify(json)
    headers['content-type'] = 'application/json'
  }
  const response = await fetch(url, { method: op.method, headers, body })
  const text = await response.text()
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    warning: response.headers.get('warning'),
    sent: request.raw || body === undefined ? undefined : (JSON.parse(body) as unknown),
    text,
  }
}

const nonAscii = (text: unknown) => typeof text === 'string' && /[^\x20-\x7e]/.test(text)

// The names a Warning header gives, one for each `299 chamberctl-sandbox "<name> ..."` value.
const WARNING_VALUE = /299 chamberctl-sandbox "((?:[^"\\]|\\.)*)"(?:, |$)/gy
const warned = (header: string | null) =>
  [...(header ?? '').matchAll(WARNING_VALUE)].map((m) => m[1]!.split(' ')[0]!).sort()

// A created record: what the sandbox ignored is not in it (an HQ's hq_id is null; a server-
// assigned field has the server's value), and every other field is as sent, but for the names,
// which are trimmed.
function expectCreated(sent: Rec, body: Rec, ignored: readonly string[], what: string) {
  for (const [key, value] of Object.entries(sent)) {
    if (key === 'hq_id' && sent.type === 'hq') expect(body.hq_id, what).toBeNull()
    else if (ignored.includes(key)) expect(body[key], what).not.toEqual(value)
    else if (key !== 'name' && key !== 'membership_type') expect(body[key], what).toEqual(value)
  }
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
      expect(warned(answer.warning), `${what} (Warning: ${answer.warning})`).toEqual(
        [...(request.ignored ?? [])].sort(),
      )
      if (!request.ignored?.length) expect(answer.warning, what).toBeNull()
      const body = JSON.parse(answer.text) as Rec
      if (answer.status === 201)
        expectCreated(answer.sent as Rec, body, request.ignored ?? [], what)
      if (request.empty) expect(body.data, what).toEqual([])
      if (op.statuses.includes(String(answer.status))) {
        const validate = validatorFor(op, String(answer.status))
        expect(validate(body) ? [] : validate.errors, what).toEqual([])
      } else {
        expect(body, what).toMatchObject({ error: expect.any(String) })
      }
      seen.add(`${version} ${op.id} ${answer.status}`)
      for (const name of request.ignored ?? []) seen.add(`${version} ${op.id} ignored ${name}`)
      const sent = answer.sent as Rec | undefined
      if (answer.status === 201 && nonAscii(sent?.email)) seen.add('email beyond ASCII')
      if (
        answer.status === 201 &&
        Object.values(sent?.address ?? {}).some((v) => typeof v !== 'string')
      )
        seen.add('address values beyond strings')
    }),
    { numRuns: RUNS },
  )
  const documented = operations.flatMap((op) =>
    op.versions.flatMap((version) => op.statuses.map((status) => `${version} ${op.id} ${status}`)),
  )
  expect(documented.filter((d) => !seen.has(d))).toEqual([])
  // And every input the sandbox ignores or keeps beyond the narrowest reading was sent.
  const ignorable = [
    ...SERVER_FIELDS.chamber.map((f) => `v2 createChamber ignored ${f}`),
    'v2 createChamber ignored hq_id',
    ...SERVER_FIELDS.member.map((f) => `v2 addMember ignored ${f}`),
    ...['sort', 'filter[type]', 'filter[status]'].map((p) => `v1 listChambers ignored ${p}`),
    ...['sort', 'filter[status]'].map((p) => `v1 listMembers ignored ${p}`),
    'v1 getChamber ignored include',
    'v2 listEvents ignored filter[date_to]',
    'email beyond ASCII',
    'address values beyond strings',
  ]
  expect(ignorable.filter((d) => !seen.has(d))).toEqual([])
  // About 2 s alone; the limit only catches a hang, with room for a loaded machine.
}, 60_000)
