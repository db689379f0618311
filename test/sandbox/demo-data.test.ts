// The demo data a sandbox starts with: what it must hold, relative to the injected clock, and that
// it is the same on every start.
import { describe, expect, it } from 'vitest'
import type { SandboxOptions } from '../../src/sandbox/server.js'
import { BIG_CHAMBER, START, VERSIONS, expectNotFound, fakeClock, withSandbox } from './helpers.js'
import type { Rec } from './helpers.js'

// Everything a v2 client can read from a fresh sandbox, list by list.
function snapshot(options: SandboxOptions): Promise<Record<string, Rec[]>> {
  return withSandbox(options, async (env) => {
    const api = env.api('v2')
    const chambers = await api.listAll('/chambers')
    const lists: Record<string, Rec[]> = { chambers }
    for (const { id } of chambers) {
      lists[`${id}/members`] = await api.listAll(`/chambers/${id}/members`)
      lists[`${id}/events`] = await api.listAll(`/chambers/${id}/events`)
    }
    return lists
  })
}

describe('demo data', () => {
  it(`holds at least 250 members on ${BIG_CHAMBER}, with distinct e-mail addresses`, async () => {
    await withSandbox({}, async (env) => {
      const members = await env.api('v2').listAll(`/chambers/${BIG_CHAMBER}/members`)
      expect(members.length).toBeGreaterThanOrEqual(250)
      const emails = members.map((m) => String(m.email).toLowerCase())
      expect(new Set(emails).size).toBe(members.length)
      expect(emails.every((email) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))).toBe(true)
    })
  })

  it('has several HQs with subsidiaries, each subsidiary under an existing HQ', async () => {
    await withSandbox({}, async (env) => {
      const chambers = await env.api('v2').listAll('/chambers')
      const hqs = chambers.filter((c) => c.type === 'hq')
      const subsidiaries = chambers.filter((c) => c.type === 'subsidiary')
      expect(hqs.every((hq) => hq.hq_id === null)).toBe(true)
      const hqIds = new Set(hqs.map((hq) => hq.id))
      for (const subsidiary of subsidiaries) expect(hqIds).toContain(subsidiary.hq_id)
      const parents = new Set(subsidiaries.map((s) => s.hq_id))
      expect(parents.size).toBeGreaterThanOrEqual(3)
    })
  })

  // A start far from today shows that the dates follow the injected clock, not the real one.
  it.each([START, Date.UTC(2031, 1, 3, 23, 59, 0)])(
    'has events in all three states, upcoming ones after now and past ones before (now = %d)',
    async (now) => {
      const lists = await snapshot({ now: () => now })
      const events = Object.entries(lists)
        .filter(([key]) => key.endsWith('/events'))
        .flatMap(([, list]) => list)
      const at = (event: Rec, field: string) => Date.parse(String(event[field]))
      const statuses = new Set(events.map((e) => e.status))
      expect([...statuses].sort()).toEqual(['canceled', 'past', 'upcoming'])
      for (const event of events) {
        expect(at(event, 'ends_at')).toBeGreaterThanOrEqual(at(event, 'starts_at'))
        if (event.status === 'upcoming') expect(at(event, 'starts_at')).toBeGreaterThan(now)
        if (event.status === 'past') expect(at(event, 'ends_at')).toBeLessThan(now)
      }
    },
  )

  it('gives the same records on every start with the same clock', async () => {
    const read = () => snapshot({ now: fakeClock().now })
    const [first, second] = await Promise.all([read(), read()])
    expect(Object.keys(first).length).toBeGreaterThan(20)
    expect(second).toEqual(first)
  })
})

describe.each(VERSIONS)('an empty sandbox on %s', (version) => {
  it('has no chambers', async () => {
    await withSandbox({ empty: true }, async (env) => {
      const api = env.api(version)
      const reply = await api.list('/chambers')
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({ data: [], meta: { current_page: 1, per_page: 20, total: 0 } })
      expectNotFound(await api.get(`/chambers/${BIG_CHAMBER}`), /not found/)
    })
  })
})
