// Where the spec is silent (the sandbox's manual, "Where the spec is silent"): by default the
// sandbox takes the request as an independent implementation would, leaves out what the spec does
// not ask for and says so in a Warning header and its log; with --strict it refuses with 422
// naming the field, and stores nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIG_CHAMBER, expectFieldError, openSandbox, withSandbox } from './helpers.js'
import type { RequestLogEntry } from '../../src/sandbox/server.js'
import type { TestSandbox } from './helpers.js'

const MEMBERS = `/chambers/${BIG_CHAMBER}/members`
const EVENTS = `/chambers/${BIG_CHAMBER}/events`
const HQ = { name: 'Erfurt Chamber', type: 'hq', address: { city: 'Erfurt' } }
const member = (email: string) => ({ name: 'K. Johnson', email, membership_type: 'standard' })
const warning = (text: string) => `299 chamberctl-sandbox "${text}"`
const SERVER = 'ignored: assigned by the server'

let lenient: TestSandbox
let strict: TestSandbox
beforeAll(async () => {
  ;[lenient, strict] = await Promise.all([openSandbox(), openSandbox({ strict: true })])
})
afterAll(() => Promise.all([lenient.close(), strict.close()]))

describe.each([
  ['/chambers', 'hq_id', 'hq_id ignored: an HQ has no HQ', { ...HQ, hq_id: BIG_CHAMBER }],
  ['/chambers', 'id', `id ${SERVER}`, { ...HQ, id: 'ch_7777' }],
  ['/chambers', 'created_at', `created_at ${SERVER}`, { ...HQ, created_at: '2020-01-01T00:00Z' }],
  [MEMBERS, 'id', `id ${SERVER}`, { ...member('id@example.com'), id: 'mb_777777' }],
  [MEMBERS, 'chamber_id', `chamber_id ${SERVER}`, { ...member('c@example.com'), chamber_id: 'x' }],
  [MEMBERS, 'joined_at', `joined_at ${SERVER}`, { ...member('j@example.com'), joined_at: '2020' }],
])('POST /v2%s with %s', (path, field, text, body: Record<string, unknown>) => {
  it('creates the record without it and says so in a Warning header', async () => {
    const api = lenient.api('v2')
    const reply = await api.post(path, body)
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    expect(reply.headers.get('warning')).toBe(warning(text))
    expect(reply.body[field]).not.toEqual(body[field])
    expect((await api.follow(reply)).body).toEqual(reply.body)
  })

  it('answers 422 on that field with --strict and creates nothing', async () => {
    const api = strict.api('v2')
    const before = await api.total(path)
    expectFieldError(await api.post(path, body), field)
    expect(await api.total(path)).toBe(before)
  })
})

describe('an hq_id on an hq', () => {
  it('is stored and listed as null', async () => {
    const api = lenient.api('v2')
    const created = await api.create('/chambers', { ...HQ, hq_id: BIG_CHAMBER })
    expect(created.hq_id).toBeNull()
    const listed = await api.listAll('/chambers', { 'filter[type]': 'hq' })
    expect(listed.find((c) => c.id === created.id)?.hq_id).toBeNull()
  })

  it.each([
    ['without --strict', () => lenient],
    ['with --strict', () => strict],
  ])('that is empty is null, %s, with no warning', async (_, env) => {
    const reply = await env()
      .api('v2')
      .post('/chambers', { ...HQ, hq_id: '' })
    expect(reply.status).toBe(201)
    expect(reply.body.hq_id).toBeNull()
    expect(reply.headers.get('warning')).toBeNull()
  })
})

describe('an address with values other than strings', () => {
  const address = { city: 'Erfurt', postal_code: 99084, geo: { lat: 50.98, lon: 11.03 } }

  it('is stored as sent, the spec showing no structure of an address', async () => {
    const reply = await lenient.api('v2').post('/chambers', { ...HQ, address })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    expect(reply.body.address).toEqual(address)
    expect(reply.headers.get('warning')).toBeNull()
    expect((await lenient.api('v2').follow(reply)).body.address).toEqual(address)
  })

  it('answers 422 on each such value with --strict', async () => {
    expectFieldError(
      await strict.api('v2').post('/chambers', { ...HQ, address }),
      'address.postal_code',
    )
  })
})

describe.each([
  ['v1', '/chambers', 'sort', 'name', 'sort ignored: v1 has no sort'],
  ['v1', '/chambers', 'filter[type]', 'hq', 'filter[type] ignored: v1 has no filters'],
  ['v1', '/chambers', 'filter[status]', 'active', 'filter[status] ignored: v1 has no filters'],
  ['v1', `/chambers/${BIG_CHAMBER}`, 'include', 'members', 'include ignored: v1 has no include'],
  ['v1', MEMBERS, 'sort', '-joined_at', 'sort ignored: v1 has no sort'],
  ['v1', MEMBERS, 'filter[status]', 'active', 'filter[status] ignored: v1 has no filters'],
  [
    'v2',
    '/chambers',
    'filter[color]',
    'red',
    'filter[color] ignored: no such filter here (filters: type, status)',
  ],
  [
    'v2',
    MEMBERS,
    'filter[type]',
    'x',
    'filter[type] ignored: no such filter here (filters: status)',
  ],
  [
    'v2',
    EVENTS,
    'filter[type]',
    'x',
    'filter[type] ignored: no such filter here (filters: status, date_from, date_to)',
  ],
] as const)('GET /%s%s with %s', (version, path, param, value, text) => {
  it('answers as without it and says so in a Warning header', async () => {
    const api = lenient.api(version)
    const [plain, given] = await Promise.all([api.get(path), api.get(path, { [param]: value })])
    expect(given.status).toBe(200)
    expect(given.body).toEqual(plain.body)
    expect(given.headers.get('warning')).toBe(warning(text))
    expect(plain.headers.get('warning')).toBeNull()
  })

  it('answers 422 naming it with --strict', async () => {
    expectFieldError(await strict.api(version).get(path, { [param]: value }), param)
  })
})

describe('what was ignored', () => {
  it('is one Warning value each, quoted, and a list in the log entry', async () => {
    const log: RequestLogEntry[] = []
    await withSandbox({ onRequest: (entry) => log.push(entry) }, async (env) => {
      const reply = await env.api('v1').get('/chambers', { sort: 'name', 'filter[a"b\\é]': 'x' })
      expect(reply.headers.get('warning')).toBe(
        [
          warning('sort ignored: v1 has no sort'),
          warning('filter[a\\"b\\\\?] ignored: v1 has no filters'),
        ].join(', '),
      )
    })
    expect(log.find((entry) => entry.path.startsWith('/v1/chambers?'))?.warnings).toEqual([
      'sort ignored: v1 has no sort',
      'filter[a"b\\é] ignored: v1 has no filters',
    ])
  })
})
