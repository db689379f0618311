// The fake API the tests build on: what it answers, what it logs, and what it holds.
import { describe, expect, it } from 'vitest'
import { Holder, startFakeApi } from './fake-api.js'

const post = (url: string, body: object) =>
  fetch(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  })

describe('the fake API', () => {
  it('grants a token before the answer is asked, logs every request, and 404s the rest', async () => {
    const api = await startFakeApi({
      answer: ({ path }) => (path.endsWith('/one') ? { body: 1 } : undefined),
    })
    try {
      expect(
        await (await post(`${api.baseUrl()}/auth/token`, { client_id: 'c' })).json(),
      ).toMatchObject({
        token_type: 'Bearer',
      })
      expect(await (await fetch(`${api.baseUrl()}/one`)).json()).toBe(1)
      expect((await fetch(`${api.baseUrl()}/two`)).status).toBe(404)
      expect(api.requests.map((r) => `${r.method} ${r.path} ${r.body}`)).toEqual([
        'POST /v2/auth/token {"client_id":"c"}',
        'GET /v2/one ',
        'GET /v2/two ',
      ])
    } finally {
      await api.close()
    }
  })

  it('drops the connection once the request is read, and forwards to an upstream', async () => {
    const upstream = await startFakeApi({
      answer: ({ body }) => ({ status: 201, body: JSON.parse(body) }),
    })
    const api = await startFakeApi({
      upstream: upstream.url,
      answer: ({ path }) => (path.endsWith('/drop') ? 'drop' : 'forward'),
    })
    try {
      await expect(fetch(`${api.baseUrl()}/drop`)).rejects.toThrow()
      const forwarded = await post(`${api.baseUrl()}/x`, { a: 1 })
      expect([forwarded.status, await forwarded.json()]).toEqual([201, { a: 1 }])
      expect(upstream.requests.map((r) => r.path)).toEqual(['/v2/x'])
    } finally {
      await api.close()
      await upstream.close()
    }
  })

  it('holds things until released, oldest first', async () => {
    const holder = new Holder<string>()
    const gone: string[] = []
    for (const item of ['a', 'b', 'c']) void holder.hold(item).then(() => gone.push(item))
    await holder.whenHeld(3)
    holder.release(2)
    await new Promise((resolve) => setImmediate(resolve))
    expect([gone, holder.held()]).toEqual([['a', 'b'], ['c']])
  })
})
