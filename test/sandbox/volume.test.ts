// `demoMembers`: the fast fill of the demo chamber, and lists over what it adds.
import { describe, expect, it } from 'vitest'
import { startSandbox } from '../../src/sandbox/server.js'
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
