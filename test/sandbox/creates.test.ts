// v2's two creates: what they store and answer, and every way a request to them can be refused.
import { setImmediate } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BODY_LIMIT } from '../../src/sandbox/http.js'
import {
  BIG_CHAMBER,
  expectError,
  expectFieldError,
  expectNotFound,
  ids,
  openSandbox,
} from './helpers.js'
import type { ApiClient, Rec, TestSandbox } from './helpers.js'

const MEMBERS = `/chambers/${BIG_CHAMBER}/members`
const CHAMBER = {
  name: 'Leipzig Chamber',
  type: 'hq',
  address: { city: 'Leipzig', postal_code: '04109' },
}
const MEMBER = {
  name: 'Annie Easley',
  email: 'annie.easley@example.com',
  membership_type: 'premium',
}
const MINUTES_30 = 30 * 60_000
// Demo data: Potsdam, a subsidiary of ch_0001.
const SUBSIDIARY = 'ch_0005'

let env: TestSandbox
let api: ApiClient
beforeEach(async () => {
  env = await openSandbox()
  api = env.api('v2')
})
afterEach(() => env.close())

// A create must answer 201 with a Location that GET resolves to the same record.
async function createAndFollow(path: string, json: unknown): Promise<Rec> {
  const reply = await api.post(path, json)
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  const fetched = await api.follow(reply)
  expect(fetched.status).toBe(200)
  expect(fetched.body).toEqual(reply.body)
  return reply.body
}

describe('POST /v2/chambers', () => {
  it('creates an HQ with server-assigned fields and lists it', async () => {
    const before = await api.listAll('/chambers')
    const chamber = await createAndFollow('/chambers', CHAMBER)
    expect(chamber).toEqual({
      ...CHAMBER,
      id: expect.stringMatching(/^ch_\d+$/),
      hq_id: null,
      status: 'active',
      created_at: new Date(env.clock.now()).toISOString(),
    })
    expect(ids(before)).not.toContain(chamber.id)
    const after = await api.listAll('/chambers')
    expect(after).toEqual([...before, chamber])
  })

  it('creates a subsidiary of an HQ', async () => {
    const hq = await createAndFollow('/chambers', CHAMBER)
    const json = { name: 'Halle Chamber', type: 'subsidiary', hq_id: hq.id, address: {} }
    const subsidiary = await createAndFollow('/chambers', json)
    expect(subsidiary).toMatchObject({ type: 'subsidiary', hq_id: hq.id })
    const listed = await api.listAll('/chambers', { 'filter[type]': 'subsidiary' })
    expect(ids(listed)).toContain(subsidiary.id)
  })

  it('keeps a given status, unknown fields and unknown address keys', async () => {
    const json = {
      ...CHAMBER,
      status: 'pending',
      address: { ...CHAMBER.address, floor: '3' },
      website: 'https://leipzig.example.com',
      tags: ['trade', { region: 'Saxony' }],
    }
    const chamber = await createAndFollow('/chambers', json)
    expect(chamber).toMatchObject(json)
  })

  it('dates a record by the injected clock and gives every record a new id', async () => {
    const first = await createAndFollow('/chambers', CHAMBER)
    // Within the token's lifetime.
    env.clock.advance(MINUTES_30)
    const second = await createAndFollow('/chambers', CHAMBER)
    expect(second.id).not.toBe(first.id)
    const apart = Date.parse(String(second.created_at)) - Date.parse(String(first.created_at))
    expect(apart).toBe(MINUTES_30)
  })

  it.each([
    ['name', 'a missing name', { name: undefined }],
    ['name', 'a blank name', { name: '   ' }],
    ['name', 'a name that is not a string', { name: 42 }],
    ['type', 'a missing type', { type: undefined }],
    ['type', 'an unknown type', { type: 'branch' }],
    ['hq_id', 'a subsidiary without hq_id', { type: 'subsidiary' }],
    ['hq_id', 'an hq_id that does not exist', { type: 'subsidiary', hq_id: 'ch_9999' }],
    ['hq_id', 'an hq_id of a subsidiary', { type: 'subsidiary', hq_id: SUBSIDIARY }],
    ['address', 'a missing address', { address: undefined }],
    ['address', 'an address that is not an object', { address: 'Markt 1, Leipzig' }],
    ['status', 'an unknown status', { status: 'closed' }],
  ])('answers 422 on fields.%s for %s and creates nothing', async (field, _, change) => {
    const before = await api.total('/chambers')
    expectFieldError(await api.post('/chambers', { ...CHAMBER, ...change }), field)
    expect(await api.total('/chambers')).toBe(before)
  })

  it('names every missing field at once', async () => {
    const reply = await api.post('/chambers', {})
    for (const field of ['name', 'type', 'address']) expectFieldError(reply, field)
  })
})

describe('POST /v2/chambers/{id}/members', () => {
  it('adds a member with server-assigned fields, listed last', async () => {
    const total = await api.total(MEMBERS)
    const member = await createAndFollow(MEMBERS, MEMBER)
    expect(member).toEqual({
      ...MEMBER,
      id: expect.stringMatching(/^mb_\d+$/),
      chamber_id: BIG_CHAMBER,
      phone: null,
      status: 'active',
      joined_at: new Date(env.clock.now()).toISOString(),
    })
    const last = await api.list(MEMBERS, { page: total + 1, per_page: 1 })
    expect(last.body.meta.total).toBe(total + 1)
    expect(last.body.data).toEqual([member])
  })

  it('keeps a phone, a status and unknown fields', async () => {
    const json = { ...MEMBER, phone: '+49 341 123', status: 'pending', company: { name: 'NASA' } }
    expect(await createAndFollow(MEMBERS, json)).toMatchObject(json)
  })

  it('takes a percent-encoded chamber id and answers an encoded Location', async () => {
    const reply = await api.post('/chambers/ch%5F0002/members', MEMBER)
    expect(reply.status).toBe(201)
    expect(reply.body.chamber_id).toBe('ch_0002')
    expect(reply.headers.get('location')).toBe(`/v2/chambers/ch_0002/members/${reply.body.id}`)
  })

  it.each([
    ['name', 'a missing name', { name: undefined }],
    ['email', 'a missing email', { email: undefined }],
    ['email', 'an empty email', { email: '' }],
    ['email', 'an invalid email', { email: 'annie.easley' }],
    ['email', 'an email with a space', { email: 'annie easley@example.com' }],
    ['membership_type', 'a missing membership_type', { membership_type: undefined }],
    ['phone', 'a phone that is not a string', { phone: 3411234 }],
    ['status', 'an unknown status', { status: 'banned' }],
  ])('answers 422 on fields.%s for %s and adds nothing', async (field, _, change) => {
    const before = await api.total(MEMBERS)
    expectFieldError(await api.post(MEMBERS, { ...MEMBER, ...change }), field)
    expect(await api.total(MEMBERS)).toBe(before)
  })

  it('refuses an e-mail address the chamber already has, in any case', async () => {
    const [existing] = (await api.list(MEMBERS)).body.data
    const email = String(existing!.email)
    expectFieldError(await api.post(MEMBERS, { ...MEMBER, email }), 'email')
    expectFieldError(await api.post(MEMBERS, { ...MEMBER, email: email.toUpperCase() }), 'email')
    await createAndFollow(MEMBERS, MEMBER)
    expectFieldError(await api.post(MEMBERS, MEMBER), 'email')
  })

  it.each(['müller@example.de', 'a%b@example.com', 'o}_@example.org', 'x@bücher.de'])(
    'adds %s and lists it back as sent',
    async (email) => {
      const member = await createAndFollow(MEMBERS, { ...MEMBER, email })
      expect(member.email).toBe(email)
      const listed = await api.listAll(MEMBERS)
      expect(listed.find((m) => m.id === member.id)?.email).toBe(email)
    },
  )

  it('refuses a second member of one address however it is written', async () => {
    await createAndFollow(MEMBERS, { ...MEMBER, email: 'Müller@Bücher.de' })
    for (const email of [
      'mu\u0308ller@bücher.de',
      'MÜLLER@xn--bcher-kva.de',
      '"müller"@BÜCHER.DE',
    ]) {
      expectFieldError(await api.post(MEMBERS, { ...MEMBER, email }), 'email')
    }
  })

  it('accepts the same e-mail address in another chamber', async () => {
    await createAndFollow(MEMBERS, MEMBER)
    expect((await createAndFollow('/chambers/ch_0002/members', MEMBER)).chamber_id).toBe('ch_0002')
  })

  it('answers 404 {error} for an unknown chamber', async () => {
    expectNotFound(await api.post('/chambers/ch_9999/members', MEMBER), /ch_9999/)
  })
})

// A body of exactly `size` bytes: the valid JSON with a padding field.
function paddedBody(json: object, size: number): string {
  const base = JSON.stringify({ ...json, padding: '' })
  return JSON.stringify({ ...json, padding: 'x'.repeat(size - Buffer.byteLength(base)) })
}

// A body that arrives in pieces without a Content-Length, as a client streaming a file sends it.
// Each piece waits for a turn of the event loop (not for time), so that the server has read past
// the limit while the client is still sending.
function streamedBody(size: number): ReadableStream<Uint8Array> {
  const piece = new Uint8Array(256 * 1024).fill(0x20)
  let sent = 0
  return new ReadableStream({
    async pull(controller) {
      if (sent >= size) return controller.close()
      await setImmediate()
      sent += piece.length
      controller.enqueue(piece)
    },
  })
}

describe.each([
  ['/chambers', CHAMBER],
  [MEMBERS, MEMBER],
])('the body of POST /v2%s', (path, valid) => {
  const json = { 'content-type': 'application/json' }

  it.each(['application/json; charset=utf-8', 'application/merge-patch+json'])(
    'may be sent as %s',
    async (type) => {
      const body = JSON.stringify(valid)
      const reply = await api.send('POST', path, { body, headers: { 'content-type': type } })
      expect(reply.status).toBe(201)
    },
  )

  it('answers 400 for a body that is not JSON', async () => {
    expectError(await api.send('POST', path, { body: '{"name": "Leipzig",', headers: json }), 400)
  })

  it('answers 422 on fields.body for JSON that is not an object', async () => {
    expectFieldError(await api.send('POST', path, { body: '[]', headers: json }), 'body')
  })

  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['form data', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['no content type', {}],
  ])('answers 415 for %s', async (_, headers) => {
    const body = new TextEncoder().encode(JSON.stringify(valid))
    expectError(await api.send('POST', path, { body, headers }), 415, /application\/json/)
  })

  it('accepts a body of exactly 1 MiB', async () => {
    const body = paddedBody(valid, BODY_LIMIT)
    expect(Buffer.byteLength(body)).toBe(1024 * 1024)
    expect((await api.send('POST', path, { body, headers: json })).status).toBe(201)
  })

  it('answers 413 for a body one byte over 1 MiB, and the sandbox goes on', async () => {
    const body = paddedBody(valid, BODY_LIMIT + 1)
    expectError(await api.send('POST', path, { body, headers: json }), 413)
    expect((await api.list('/chambers')).status).toBe(200)
  })

  it('answers 413 for a streamed body that grows past 1 MiB', async () => {
    const body = streamedBody(16 * BODY_LIMIT)
    expectError(await api.send('POST', path, { body, headers: json }), 413)
    expect((await api.list('/chambers')).status).toBe(200)
  })
})
