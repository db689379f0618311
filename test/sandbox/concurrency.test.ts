// Many creates at once on one chamber: none lost, none doubled, in memory and on disk.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDir, withSandbox } from './helpers.js'
import type { ApiClient } from './helpers.js'

const COUNT = 200
const MEMBERS = '/chambers/ch_0002/members'

const dir = useTempDir()

// Fires COUNT creates with distinct e-mail addresses at once; answers the ids created.
async function createConcurrently(api: ApiClient): Promise<string[]> {
  const replies = await Promise.all(
    Array.from({ length: COUNT }, (_, i) =>
      api.post(MEMBERS, {
        name: `Load Tester ${i}`,
        email: `load.tester.${i}@example.com`,
        membership_type: 'standard',
      }),
    ),
  )
  expect(replies.map((reply) => reply.status)).toEqual(Array(COUNT).fill(201))
  const created = replies.map((reply) => reply.body.id)
  expect(new Set(created).size).toBe(COUNT)
  return created
}

async function expectAllListed(api: ApiClient, created: string[], total: number): Promise<void> {
  expect(await api.total(MEMBERS)).toBe(total)
  const listed = new Set((await api.listAll(MEMBERS)).map((member) => member.id))
  expect(created.filter((id) => !listed.has(id))).toEqual([])
}

describe(`${COUNT} concurrent member creates on one chamber`, () => {
  it('all answer 201 with distinct ids and grow the total by exactly as many', async () => {
    await withSandbox({}, async (env) => {
      const api = env.api('v2')
      const before = await api.total(MEMBERS)
      await expectAllListed(api, await createConcurrently(api), before + COUNT)
    })
  })

  it('are all in the database, and there after a restart', async () => {
    const dataFile = join(dir(), 'sandbox.db')
    const { created, expected } = await withSandbox({ dataFile }, async (env) => {
      const api = env.api('v2')
      const expected = (await api.total(MEMBERS)) + COUNT
      const created = await createConcurrently(api)
      await expectAllListed(api, created, expected)
      return { created, expected }
    })
    await withSandbox({ dataFile }, (env) => expectAllListed(env.api('v2'), created, expected))
  })
})
