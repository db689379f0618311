// The sandbox's answers through Prism's validation proxy (--errors), route by route and status
// by status: every operation of the spec's OpenAPI document on /v1 and /v2 with each status the
// document lists for it (200/201, 401, 404, 422), the statuses the spec leaves open that the
// sandbox serves (413 for an oversized body; 429, 500 and 503 from a second sandbox started with
// --fail-rate 1), each sent as a request the document allows, so that it reaches the sandbox.
// Where the spec is silent the sandbox ignores what it was sent (its manual, "Where the spec is
// silent"): those requests expect 200/201, the record or list without what was ignored, and a
// Warning header naming each thing ignored; no other answer may have a Warning header.
// An answer fails when its status is not the one expected, when Prism answered it itself (a
// problem+json of stoplight.io/prism/errors: our request broke the document, or, with
// --errors, the sandbox's answer did: a 500 #VIOLATIONS), or when Prism's `sl-violations`
// header names anything but "Unable to match the returned status code" for a status the
// document does not list.
//   node scripts/conformance-statuses.mjs PROXY_ROOT FAILING_PROXY_ROOT
// Run by scripts/conformance.sh, which starts both sandboxes (default credentials) and proxies.
//
// What cannot be checked this way: the sandbox's answers to requests the document itself refuses
// (no token, per_page=500, a missing field, malformed JSON, another content type, an hq's
// `hq_id: null`): Prism answers those (401, 422, 400) without forwarding them. So are e-mail
// addresses beyond ASCII (`müller@bücher.de`) and with quoted local parts (`"a b"@example.com`):
// the document's MemberCreate.email is `format: email`, which Prism checks as an ASCII dot-atom
// address, narrower than the spec's "a valid e-mail address" and the contract's §8 (RFC 5322 and
// RFC 6531, `müller@example.de` is valid), which the sandbox follows.
// test/sandbox/openapi.property.test.ts sends all of them to the sandbox directly.
import { isDeepStrictEqual } from 'node:util'

const [root, failingRoot] = process.argv.slice(2)
if (!root || !failingRoot) {
  throw new Error('usage: conformance-statuses.mjs PROXY_ROOT FAILING_PROXY_ROOT')
}
const CREDENTIALS = {
  client_id: 'sandbox-client',
  client_secret: 'sandbox-secret',
  grant_type: 'client_credentials',
}
const CHAMBER = 'ch_0001'
// Past the sandbox's 1 MiB body limit, in a body the document allows.
const OVERSIZED = { name: 'x'.repeat(1024 * 1024 + 1), type: 'hq', address: {} }
const UNMATCHED = /^Unable to match the returned status code/

// A request: version, method, path (query included), what to send and the status expected.
// token: 'own' (default), 'garbage' (a bearer token the sandbox never issued: Prism checks only
// that one is there), or none on the token route. ignored: what the Warning header must name;
// fields: values the answer's body must have.
const cases = []
const add = (version, method, path, expect, options = {}) =>
  cases.push({ version, method, path, expect, ...options })

for (const version of ['v1', 'v2']) {
  add(version, 'POST', '/auth/token', 200, { json: CREDENTIALS })
  add(version, 'POST', '/auth/token', 200, {
    json: { grant_type: 'client_credentials' },
    basic: ['sandbox-client', 'sandbox-secret'],
  })
  add(version, 'POST', '/auth/token', 401, { json: { ...CREDENTIALS, client_secret: 'wrong' } })
  add(version, 'POST', '/auth/token', 401, {
    json: { grant_type: 'client_credentials' },
    basic: ['sandbox-client', 'wrong'],
  })
  add(version, 'GET', '/chambers', 200)
  add(version, 'GET', '/chambers?page=2&per_page=3', 200)
  add(version, 'GET', '/chambers?page=999&per_page=100', 200)
  add(version, 'GET', '/chambers', 401, { token: 'garbage' })
  add(version, 'GET', `/chambers/${CHAMBER}`, 200)
  add(version, 'GET', '/chambers/no-such-chamber', 404)
  add(version, 'GET', `/chambers/${CHAMBER}`, 401, { token: 'garbage' })
  add(version, 'GET', `/chambers/${CHAMBER}/members?per_page=100`, 200)
  add(version, 'GET', `/chambers/${CHAMBER}/members?page=3&per_page=7`, 200)
  add(version, 'GET', '/chambers/no-such-chamber/members', 404)
  add(version, 'GET', `/chambers/${CHAMBER}/members`, 401, { token: 'garbage' })
}
// v2's sort, filters and include on v1 (Prism's v1 document lacks them, so they reach the
// sandbox): the spec lets a v1 server ignore them, and the sandbox does.
add('v1', 'GET', '/chambers?sort=-name', 200, { ignored: ['sort'] })
add('v1', 'GET', '/chambers?filter[type]=hq&filter[status]=active', 200, {
  ignored: ['filter[type]', 'filter[status]'],
})
add('v1', 'GET', `/chambers/${CHAMBER}?include=members`, 200, { ignored: ['include'] })
add('v1', 'GET', `/chambers/${CHAMBER}/members?sort=-joined_at&filter[status]=active`, 200, {
  ignored: ['sort', 'filter[status]'],
})
// v2's own operations and parameters.
add('v2', 'GET', '/chambers?filter[type]=hq&filter[status]=active&sort=-name', 200)
add('v2', 'GET', '/chambers?filter[type]=subsidiary&sort=created_at', 200)
add('v2', 'GET', `/chambers/${CHAMBER}?include=members`, 200)
add('v2', 'GET', `/chambers/${CHAMBER}?include=members,events`, 200)
add('v2', 'GET', `/chambers/${CHAMBER}/members?filter[status]=pending&sort=-joined_at`, 200)
add('v2', 'GET', `/chambers/${CHAMBER}/events`, 200)
add(
  'v2',
  'GET',
  `/chambers/${CHAMBER}/events?filter[status]=upcoming&filter[date_from]=2024-01-01&filter[date_to]=2030-12-31T23:59:59Z&per_page=5`,
  200,
)
// date_to before date_from: no event matches.
add(
  'v2',
  'GET',
  `/chambers/${CHAMBER}/events?filter[date_from]=2026-01-02&filter[date_to]=2026-01-01`,
  200,
  { ignored: ['filter[date_to]'], fields: { data: [] } },
)
add('v2', 'GET', '/chambers/no-such-chamber/events', 404)
add('v2', 'GET', `/chambers/${CHAMBER}/events`, 401, { token: 'garbage' })
add('v2', 'POST', '/chambers', 201, {
  json: { name: 'Conformance HQ', type: 'hq', address: { city: 'Berlin' } },
})
add('v2', 'POST', '/chambers', 201, {
  json: { name: 'Conformance Sub', type: 'subsidiary', hq_id: CHAMBER, address: {} },
})
// An hq's hq_id (the spec requires one of a subsidiary only) is ignored, so are the fields the
// server assigns; an address is stored as sent, of any JSON values.
add('v2', 'POST', '/chambers', 201, {
  json: { name: 'Conformance HQ', type: 'hq', hq_id: CHAMBER, address: {} },
  ignored: ['hq_id'],
  fields: { hq_id: null },
})
const address = { city: 'Erfurt', postal_code: 99084, geo: { lat: 50.98, lon: 11.03 }, po: null }
add('v2', 'POST', '/chambers', 201, {
  json: { name: 'Conformance HQ', type: 'hq', id: 'ch_9999', created_at: '2000-01-01', address },
  ignored: ['id', 'created_at'],
  fields: { address },
})
// Valid by the document, refused by the sandbox: a subsidiary of a chamber that does not exist.
add('v2', 'POST', '/chambers', 422, {
  json: { name: 'Orphan', type: 'subsidiary', hq_id: 'no-such-chamber', address: {} },
})
add('v2', 'POST', '/chambers', 401, {
  token: 'garbage',
  json: { name: 'x', type: 'hq', address: {} },
})
add('v2', 'POST', '/chambers', 413, { json: OVERSIZED })
const member = {
  name: 'Ada Lovelace',
  // Once per run: the sandbox may have served earlier runs.
  email: `ada.${process.pid}@example.com`,
  membership_type: 'standard',
  phone: '+49 30 1234',
}
add('v2', 'POST', `/chambers/${CHAMBER}/members`, 201, { json: member })
add('v2', 'POST', `/chambers/${CHAMBER}/members`, 201, {
  json: {
    ...member,
    email: `assigned.${process.pid}@example.com`,
    id: 'mb_999999',
    chamber_id: 'no-such-chamber',
    joined_at: '2000-01-01T00:00:00Z',
  },
  ignored: ['id', 'chamber_id', 'joined_at'],
  fields: { chamber_id: CHAMBER },
})
// The same address again in the same chamber.
add('v2', 'POST', `/chambers/${CHAMBER}/members`, 422, { json: member })
add('v2', 'POST', '/chambers/no-such-chamber/members', 404, { json: member })
add('v2', 'POST', `/chambers/${CHAMBER}/members`, 401, { token: 'garbage', json: member })
add('v2', 'POST', `/chambers/${CHAMBER}/members`, 413, {
  json: { ...member, name: OVERSIZED.name },
})

const tokens = {}
let sent = 0
async function send(base, c) {
  sent++
  const headers = {}
  let token = c.token ?? 'own'
  if (c.path !== '/auth/token') {
    if (token === 'own') token = tokens[c.version] ??= await issue(base, c.version)
    headers.authorization = `Bearer ${token}`
  }
  if (c.basic) {
    headers.authorization = `Basic ${Buffer.from(c.basic.join(':')).toString('base64')}`
  }
  let body
  if (c.json !== undefined) {
    body = JSON.stringify(c.json)
    headers['content-type'] = 'application/json'
  }
  const response = await fetch(`${base}/${c.version}${c.path}`, { method: c.method, headers, body })
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    violations: JSON.parse(response.headers.get('sl-violations') ?? '[]'),
    warning: response.headers.get('warning'),
    text: await response.text(),
  }
}

async function issue(base, version) {
  const answer = await send(base, {
    version,
    method: 'POST',
    path: '/auth/token',
    json: CREDENTIALS,
  })
  if (answer.status !== 200)
    throw new Error(`POST /${version}/auth/token answered ${answer.status}`)
  return JSON.parse(answer.text).access_token
}

// The names a Warning header gives, one for each `299 chamberctl-sandbox "<name> ..."` value.
const WARNING_VALUE = /299 chamberctl-sandbox "((?:[^"\\]|\\.)*)"(?:, |$)/gy
const warned = (header) =>
  [...(header ?? '').matchAll(WARNING_VALUE)].map((m) => m[1].split(' ')[0]).sort()

const failures = []
const seen = new Set()
function check(c, answer, expected) {
  const what = `${c.method} /${c.version}${c.path.slice(0, 80)} → ${answer.status}`
  const problems = []
  if (!expected.includes(answer.status)) problems.push(`expected ${expected.join(' or ')}`)
  if (/problem\+json/.test(answer.type) || /stoplight\.io\/prism\/errors/.test(answer.text)) {
    problems.push(`answered by Prism: ${answer.text.slice(0, 300)}`)
  }
  const ignored = [...(c.ignored ?? [])].sort()
  if (
    !isDeepStrictEqual(warned(answer.warning), ignored) ||
    (!ignored.length && answer.warning !== null)
  ) {
    problems.push(`Warning ${answer.warning} where ${ignored.join(', ') || 'nothing'} was ignored`)
  }
  if (c.fields && !/problem\+json/.test(answer.type)) {
    const body = JSON.parse(answer.text)
    for (const [key, value] of Object.entries(c.fields)) {
      if (!isDeepStrictEqual(body[key], value)) problems.push(`${key} ${JSON.stringify(body[key])}`)
    }
  }
  for (const v of answer.violations) {
    if (!UNMATCHED.test(v.message))
      problems.push(`violation: ${v.location?.join('.')}: ${v.message}`)
  }
  if (problems.length) failures.push(`${what}: ${problems.join('; ')}`)
  seen.add(`${c.method} /${c.version}${c.path.replace(/\?.*/, '')} ${answer.status}`)
}

for (const c of cases) check(c, await send(root, c), [c.expect].flat())

// The injected failures: each request is answered 500, 503 or 429 at random; sent until each
// of the three has come (at most 60 requests: a chance of missing one below 1e-10).
const injected = new Set()
const failing = { version: 'v2', method: 'GET', path: '/chambers', token: 'garbage' }
for (let i = 0; i < 60 && injected.size < 3; i++) {
  const answer = await send(failingRoot, failing)
  check(failing, answer, [429, 500, 503])
  injected.add(answer.status)
}
if (injected.size < 3) failures.push(`--fail-rate 1 answered only ${[...injected].join(', ')}`)

for (const f of failures.slice(0, 20)) console.error(`FAIL ${f}`)
console.log(
  `prism proxy statuses: ${sent} requests, ${seen.size} route × status pairs, ${failures.length} failures`,
)
process.exitCode = failures.length ? 1 : 0
