// Walking a list page by page: the sandbox starts each page where the one before it ended
// instead of counting past every record before it. The pages must be exactly those of counting
// (the OFFSET a page asked for out of turn gets), ties and descending orders included, and a
// write — in this process or in another one on the same database — must be seen at once.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIG_CHAMBER, openSandbox, useTempDir } from './helpers.js'
import type { ApiClient, Query, Rec, TestSandbox } from './helpers.js'

const MEMBERS = `/chambers/${BIG_CHAMBER}/members`
const PER_PAGE = 7
// Sorts first by name, so that every later member moves one place down.
const NEW_MEMBER = {
  name: 'Aaron Aardvark',
  email: 'aaron@example.com',
  membership_type: 'standard',
}

async function page(api: ApiClient, path: string, query: Query, n: number): Promise<string[]> {
  const reply = await api.list(path, { per_page: PER_PAGE, ...query, page: n })
  expect(reply.status).toBe(200)
  return reply.body.data.map((record: Rec) => record.id)
}

describe('pages walked in turn are the pages asked for out of turn', () => {
  let env: TestSandbox
  let api: ApiClient
  beforeAll(async () => {
    env = await openSandbox({ demoMembers: 40 })
    api = env.api('v2')
  })
  afterAll(() => env.close())

  // Sorts with many equal keys (status, membership_type) test the tie order; name and joined_at
  // descending take the walk down the index.
  const lists: [string, Query][] = [
    [MEMBERS, {}],
    [MEMBERS, { sort: 'name' }],
    [MEMBERS, { sort: '-name' }],
    [MEMBERS, { sort: 'status' }],
    [MEMBERS, { sort: '-membership_type' }],
    [MEMBERS, { sort: '-joined_at', 'filter[status]': 'active' }],
    [MEMBERS, { sort: 'membership_type', 'filter[status]': 'active' }],
    ['/chambers', { sort: 'type', per_page: 3 }],
    [`/chambers/${BIG_CHAMBER}/events`, { per_page: 2 }],
  ]

  it.each(lists)('%s %o', async (path, query) => {
    const total = (await api.list(path, { ...query, per_page: 1 })).body.meta.total
    const last = Math.ceil(total / Number(query.per_page ?? PER_PAGE))
    expect(last).toBeGreaterThan(2)
    // Backwards, no page follows the one before it: each is counted from the start.
    const counted: string[][] = []
    for (let n = last; n >= 1; n--) counted[n - 1] = await page(api, path, query, n)
    const walked: string[][] = []
    for (let n = 1; n <= last; n++) walked.push(await page(api, path, query, n))
    expect(walked).toEqual(counted)
    expect(new Set(walked.flat()).size).toBe(total)
  })
})

describe('a write between two pages', () => {
  const tempDir = useTempDir()

  it('in the same sandbox: the next page is counted again', async () => {
    const env = await openSandbox({ demoMembers: 40 })
    try {
      const api = env.api('v2')
      const query = { sort: 'name' }
      const [, second] = [await page(api, MEMBERS, query, 1), await page(api, MEMBERS, query, 2)]
      await api.create(MEMBERS, NEW_MEMBER)
      const third = await page(api, MEMBERS, query, 3)
      expect(third[0]).toBe(second.at(-1))
    } finally {
      await env.close()
    }
  })

  it('by another sandbox on the same database: seen by the next page', async () => {
    const dataFile = join(tempDir(), 'sandbox.db')
    const reader = await openSandbox({ dataFile, demoMembers: 40 })
    const writer = await openSandbox({ dataFile })
    try {
      const api = reader.api('v2')
      const query = { sort: 'name' }
      const [, second] = [await page(api, MEMBERS, query, 1), await page(api, MEMBERS, query, 2)]
      await writer.api('v2').create(MEMBERS, NEW_MEMBER)
      expect((await page(api, MEMBERS, query, 3))[0]).toBe(second.at(-1))
    } finally {
      await writer.close()
      await reader.close()
    }
  })
})

// Past the first thousand records, a page asked for out of turn is counted from a mark noted by
// an earlier count of the same list (store.ts, MARK_EVERY): the pages must be those of counting
// from the start, whatever was asked before, and a write must move every later page.
describe('pages deep into a list asked for out of turn', () => {
  let env: TestSandbox
  beforeAll(async () => {
    env = await openSandbox({ demoMembers: 2740 })
  })
  afterAll(() => env.close())

  it.each<Query>([{}, { sort: 'name' }, { 'filter[status]': 'active', sort: 'email' }])(
    'are the pages walked in turn (%j)',
    async (query) => {
      const api = env.api('v2')
      const all = await api.listAll(MEMBERS, query)
      const slice = (n: number) => all.slice((n - 1) * 100, n * 100).map((record) => record.id)
      const last = Math.ceil(all.length / 100)
      expect(last).toBeGreaterThan(20)
      for (const n of [last, last - 2, 12, 11, last - 1, last + 1, 19, 1, 13]) {
        expect(await page(api, MEMBERS, { ...query, per_page: 100 }, n), `page ${n}`).toEqual(
          slice(n),
        )
      }
      // A member sorted first moves every later page by one.
      if (!query.sort) return
      await api.create(MEMBERS, { ...NEW_MEMBER, email: `aaron.${all.length}@example.com` })
      const moved = await page(api, MEMBERS, { ...query, per_page: 100 }, last - 1)
      expect(moved[0]).toBe(slice(last - 2).at(-1))
    },
  )
})
