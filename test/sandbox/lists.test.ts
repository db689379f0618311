// Reading: lists, pagination, single chambers, and the routes each version has. One demo sandbox
// serves the whole file, since nothing here writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ListEnvelope } from '../../src/api/schemas.js'
import {
  BIG_CHAMBER,
  VERSIONS,
  expectError,
  expectFieldError,
  expectNotFound,
  ids,
  openSandbox,
} from './helpers.js'
import type { ApiClient, Rec, TestSandbox } from './helpers.js'

const MEMBERS = `/chambers/${BIG_CHAMBER}/members`

let env: TestSandbox
beforeAll(async () => {
  env = await openSandbox()
})
afterAll(() => env.close())

describe.each(VERSIONS)('lists on %s', (version) => {
  let api: ApiClient
  let members: Rec[]
  beforeAll(async () => {
    api = env.api(version)
    members = await api.listAll(MEMBERS)
  })

  it('lists chambers with the envelope and its defaults', async () => {
    const reply = await api.list('/chambers')
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/)
    expect(reply.body.meta).toEqual({ current_page: 1, per_page: 20, total: 10 })
    expect(reply.body.data).toHaveLength(10)
    for (const chamber of reply.body.data) {
      expect(chamber).toMatchObject({
        id: expect.any(String),
        name: expect.any(String),
        type: expect.stringMatching(/^(hq|subsidiary)$/),
        address: expect.any(Object),
        status: expect.stringMatching(/^(active|inactive|pending)$/),
        created_at: expect.any(String),
      })
    }
  })

  it('pages members 20 at a time by default', async () => {
    const first = await api.list(MEMBERS)
    expect(first.body.meta).toEqual({ current_page: 1, per_page: 20, total: members.length })
    expect(ids(first.body.data)).toEqual(ids(members.slice(0, 20)))
    const second = await api.list(MEMBERS, { page: 2 })
    expect(ids(second.body.data)).toEqual(ids(members.slice(20, 40)))
  })

  it('walks every member exactly once across pages of 100, the last one partial', async () => {
    expect(new Set(ids(members)).size).toBe(members.length)
    const last = Math.ceil(members.length / 100)
    expect(members.length % 100).toBeGreaterThan(0)
    const reply = await api.list(MEMBERS, { page: last, per_page: 100 })
    expect(reply.status).toBe(200)
    expect(reply.body.meta).toEqual({ current_page: last, per_page: 100, total: members.length })
    expect(ids(reply.body.data)).toEqual(ids(members.slice((last - 1) * 100)))
  })

  it('answers a page past the end with no records and the page asked for', async () => {
    const reply = await api.list(MEMBERS, { page: 40, per_page: 10 })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      data: [],
      meta: { current_page: 40, per_page: 10, total: members.length },
    })
  })

  it.each([
    ['per_page', 101],
    ['per_page', 0],
    ['per_page', -5],
    ['per_page', 'ten'],
    ['page', 'abc'],
    ['page', 0],
    ['page', 1.5],
    ['page', ''],
    ['page', '9007199254740993'],
  ])('answers 422 naming %s for %j', async (param, value) => {
    expectFieldError(await api.list(MEMBERS, { [param]: value }), param)
    expectFieldError(await api.list('/chambers', { [param]: value }), param)
  })

  it('gets one chamber, the same record the list shows', async () => {
    const listed = (await api.list('/chambers')).body.data
    for (const chamber of listed) {
      const reply = await api.get(`/chambers/${chamber.id}`)
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual(chamber)
    }
  })

  it('decodes percent-encoded ids in the path', async () => {
    const chamber = await api.get('/chambers/ch%5F0001')
    expect(chamber.status).toBe(200)
    expect(chamber.body.id).toBe(BIG_CHAMBER)
    const listed = await api.list('/chambers/%63h_0001/members')
    expect(listed.body.meta.total).toBe(members.length)
  })

  it('answers 400 for malformed percent-encoding', async () => {
    expectError(await api.get('/chambers/ch%ZZ01'), 400, /percent/)
  })

  const unknown = ['/chambers/ch_9999', '/chambers/ch_9999/members', '/chambers/nope%2Fch_0001']
  it.each(version === 'v2' ? [...unknown, '/chambers/ch_9999/events'] : unknown)(
    'answers 404 {error} for an unknown chamber at %s',
    async (path) => {
      expectNotFound(await api.get(path), /not found/)
    },
  )

  it('answers 404 for a path that is no route', async () => {
    expectNotFound(await api.get('/members'), /no such route/)
    expectNotFound(await api.get(`${MEMBERS}/mb_000001/notes`), /no such route/)
  })

  it('answers 405 with Allow for a method a route does not have', async () => {
    const reply = await api.send('DELETE', `/chambers/${BIG_CHAMBER}`)
    expect(reply.status).toBe(405)
    expect(reply.headers.get('allow')).toBe('GET')
  })
})

it.each(['/', '/v3/chambers', '/chambers'])(
  'answers 404 {error} outside /v1 and /v2: %s',
  async (path) => {
    const response = await fetch(env.sandbox.url + path)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: expect.stringMatching(/v1 and \/v2/) })
  },
)

describe('what v1 leaves to v2', () => {
  it.each(['/chambers', `/chambers/${BIG_CHAMBER}/members`])(
    'POST /v1%s answers 405 with Allow: GET',
    async (path) => {
      const json = {
        name: 'x',
        type: 'hq',
        address: {},
        email: 'a@b.example',
        membership_type: 'x',
      }
      const reply = await env.api('v1').post(path, json)
      expectError(reply, 405, /v2/)
      expect(reply.headers.get('allow')).toBe('GET')
    },
  )

  it('GET /v1/chambers/{id}/events answers 404 naming v2', async () => {
    const reply = await env.api('v1').get(`/chambers/${BIG_CHAMBER}/events`)
    expectNotFound(reply, /v2/)
  })

  it('v1 and v2 show the same chambers and members', async () => {
    for (const path of ['/chambers', MEMBERS]) {
      const [v1, v2] = await Promise.all(VERSIONS.map((version) => env.api(version).listAll(path)))
      expect(v1).toEqual(v2)
    }
  })
})

// Used below to compare a list with its embedding in a chamber.
async function envelope(path: string): Promise<ListEnvelope<Rec>> {
  return (await env.api('v2').list(path, { per_page: 100 })).body
}

describe('include on v2', () => {
  const api = () => env.api('v2')

  it('embeds the first page of members and events next to the chamber record, with totals', async () => {
    const reply = await api().get(`/chambers/${BIG_CHAMBER}`, { include: 'members,events' })
    expect(reply.status).toBe(200)
    const { members, events, members_total, events_total, ...chamber } = reply.body
    expect(chamber).toEqual((await api().get(`/chambers/${BIG_CHAMBER}`)).body)
    const allMembers = await api().listAll(MEMBERS)
    const allEvents = await api().listAll(`/chambers/${BIG_CHAMBER}/events`)
    expect(allMembers.length).toBeGreaterThan(20)
    expect(members).toEqual(allMembers.slice(0, 20))
    expect(members_total).toBe(allMembers.length)
    expect(events).toEqual(allEvents.slice(0, 20))
    expect(events_total).toBe(allEvents.length)
    expect((events as Rec[]).length).toBeGreaterThan(0)
  })

  it('embeds per_page records at most', async () => {
    const reply = await api().get(`/chambers/${BIG_CHAMBER}`, { include: 'members', per_page: 3 })
    expect(reply.body.members).toEqual((await api().listAll(MEMBERS)).slice(0, 3))
    const largest = await api().get(`/chambers/${BIG_CHAMBER}`, {
      include: 'members',
      per_page: 100,
    })
    expect(largest.body.members).toEqual((await envelope(MEMBERS)).data)
  })

  it.each(['0', '101', 'x'])('answers 422 for include with per_page %s', async (perPage) => {
    const reply = await api().get(`/chambers/${BIG_CHAMBER}`, {
      include: 'members',
      per_page: perPage,
    })
    expectFieldError(reply, 'per_page')
  })

  it('embeds only what is asked for', async () => {
    const reply = await api().get('/chambers/ch_0002', { include: 'events' })
    const events = await envelope('/chambers/ch_0002/events')
    expect(reply.body.events).toEqual(events.data.slice(0, 20))
    expect(reply.body.events_total).toBe(events.meta.total)
    expect(reply.body).not.toHaveProperty('members')
  })

  it('embeds an empty array for a chamber without events', async () => {
    const augsburg = (await envelope('/chambers')).data.find((c) => c.name === 'Augsburg Chamber')
    const reply = await api().get(`/chambers/${augsburg!.id}`, { include: 'events' })
    expect(reply.body.events).toEqual([])
    expect(reply.body.events_total).toBe(0)
  })

  it.each(['owners', 'members,owners'])('answers 422 on include for %s', async (include) => {
    const reply = await api().get(`/chambers/${BIG_CHAMBER}`, { include })
    expectFieldError(reply, 'include')
    expect(JSON.stringify(reply.body)).toContain('owners')
  })

  it('answers 404 for include on an unknown chamber', async () => {
    expectNotFound(await api().get('/chambers/ch_9999', { include: 'members' }), /ch_9999/)
  })
})
