// `demoMembers`: the fast fill of the demo chamber, and lists over what it adds.
import { describe, expect, it } from 'vitest'
import { demoDataset, demoMember } from '../../src/sandbox/demo-data.js'
import { startSandbox } from '../../src/sandbox/server.js'
import { Store } from '../../src/sandbox/store.js'
import { BIG_CHAMBER, ids, sortedBy, withSandbox } from './helpers.js'

const MEMBERS = `/chambers/${BIG_CHAMBER}/members`
const ADDED = 1500

describe(`a sandbox with ${ADDED} demo members added`, () => {
  it('lists them after the demo ones, with distinct ids and e-mail addresses', async () => {
    await withSandbox({ demoMembers: ADDED }, async (env) => {
      const api = env.api('v2')
      const members = await api.listAll(MEMBERS)
      expect(members).toHaveLength(260 + ADDED)
      expect(new Set(ids(members)).size).toBe(members.length)
      expect(new Set(members.map((m) => String(m.email).toLowerCase())).size).toBe(members.length)
      expect(members.at(-1)!.id).toBe(`mb_${String(343 + ADDED).padStart(6, '0')}`)
      // Ids and e-mail checks go on as usual after a fill.
      const reply = await api.post(MEMBERS, {
        ...members.at(-1),
        id: undefined,
        chamber_id: undefined,
        joined_at: undefined,
      })
      expect(reply.status).toBe(422)
      const created = await api.create(MEMBERS, {
        name: 'After Fill',
        email: 'after.fill@example.com',
        membership_type: 'x',
      })
      expect(created.id).toBe(`mb_${String(344 + ADDED).padStart(6, '0')}`)
    })
  })

  it.each([
    [{ sort: '-name' }, 'all', '-name'],
    [{ sort: 'membership_type', 'filter[status]': 'pending' }, 'pending', 'membership_type'],
    [{ sort: '-joined_at', 'filter[status]': 'active' }, 'active', '-joined_at'],
  ])('serves the pages of %j in the order computed here', async (query, status, sort) => {
    await withSandbox({ demoMembers: ADDED }, async (env) => {
      const api = env.api('v2')
      const all = await api.listAll(MEMBERS)
      const matching = all.filter((m) => status === 'all' || m.status === status)
      const expected = sortedBy(matching, sort)
      for (const page of [1, 4]) {
        const reply = await api.list(MEMBERS, { ...query, page, per_page: 25 })
        expect(reply.body.meta.total).toBe(matching.length)
        expect(ids(reply.body.data)).toEqual(ids(expected.slice((page - 1) * 25, page * 25)))
      }
    })
  })

  it('is refused without the demo chamber', async () => {
    await expect(startSandbox({ port: 0, empty: true, demoMembers: 10 })).rejects.toThrow(
      /--demo-members adds to the demo chamber ch_0001/,
    )
  })
})

// What bench/million.mjs fills a directory of many chambers with, in one transaction.
describe('Store.addMembers over several chambers', () => {
  it('gives each chamber its members, numbered on from one chamber to the next', () => {
    const dataset = demoDataset(Date.UTC(2026, 0, 1))
    const store = Store.open({ initial: () => dataset })
    try {
      const chambers = ['ch_0002', 'ch_0003'].map((id) => store.getChamber(id)!)
      const before = chambers.map((chamber) => store.memberCount(chamber))
      store.addMembers(chambers, 30, (chamber, i, n) =>
        demoMember(chamber.record.id, `${chamber.record.id}.example`, i, n),
      )
      const page = { page: 1, perPage: 100 }
      const [second, third] = chambers.map((chamber) => store.listMembers(chamber, undefined, page))
      expect(second!.total).toBe(before[0]! + 30)
      expect(third!.total).toBe(before[1]! + 30)
      // The demo data's last member is mb_000343: the first chamber's 30, then the second's.
      expect(second!.records.at(-1)!.id).toBe('mb_000373')
      expect(third!.records.slice(before[1]).map((m) => m.id)).toEqual(
        Array.from({ length: 30 }, (_, i) => `mb_${String(374 + i).padStart(6, '0')}`),
      )
      expect(new Set(third!.records.map((m) => m.email)).size).toBe(third!.records.length)
    } finally {
      store.close()
    }
  })
})
