// POST /_sandbox/reset and GET /_sandbox/requests: what a test author resets between cases and
// asks about after them, outside the API's auth.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BODY_KEPT, REQUESTS_KEPT } from '../../src/sandbox/control.js'
import type { LoggedRequest } from '../../src/sandbox/control.js'
import {
  BIG_CHAMBER,
  basicAuth,
  credentialsBody,
  expectFieldError,
  useTempDir,
  withSandbox,
} from './helpers.js'
import type { TestSandbox } from './helpers.js'

const MEMBER = { name: 'Grace Hopper', email: 'grace@example.com', membership_type: 'standard' }

async function control(env: TestSandbox, method: string, path: string) {
  const reply = await fetch(`${env.sandbox.url}/_sandbox/${path}`, { method })
  return {
    status: reply.status,
    headers: reply.headers,
    body: (await reply.json()) as Record<string, unknown>,
  }
}

async function requests(env: TestSandbox, query = ''): Promise<LoggedRequest[]> {
  const reply = await control(env, 'GET', `requests${query}`)
  expect(reply.status).toBe(200)
  return reply.body.data as LoggedRequest[]
}

describe('POST /_sandbox/reset', () => {
  it.each([false, true])('brings back what the sandbox started with (empty: %s)', async (empty) => {
    await withSandbox({ empty }, async (env) => {
      const api = env.api('v2')
      const before = await api.listAll('/chambers')
      const created = await api.post('/chambers', {
        name: 'Extra Chamber',
        type: 'hq',
        address: { city: 'Bonn' },
      })
      expect(created.status).toBe(201)
      const reset = await control(env, 'POST', 'reset')
      expect(reset.status).toBe(200)
      expect(reset.body).toEqual({
        status: 'reset',
        chambers: before.length,
        members: empty ? 0 : expect.any(Number),
        events: empty ? 0 : expect.any(Number),
      })
      expect(await api.listAll('/chambers')).toEqual(before)
      // Ids are counted from the start data again; the token still works.
      const again = await api.post('/chambers', { name: 'Extra', type: 'hq', address: {} })
      expect(again.body.id).toBe(created.body.id)
      // The log starts again too.
      const logged = await requests(env)
      expect(logged.map((r) => `${r.method} ${r.path}`)).toEqual([
        'GET /v2/chambers',
        'POST /v2/chambers',
      ])
    })
  })

  it('brings back a member added to the demo chamber, and answers POST only, without a token', async () => {
    await withSandbox({}, async (env) => {
      const api = env.api('v2')
      const total = await api.total(`/chambers/${BIG_CHAMBER}/members`)
      await api.post(`/chambers/${BIG_CHAMBER}/members`, MEMBER)
      expect(await api.total(`/chambers/${BIG_CHAMBER}/members`)).toBe(total + 1)
      expect((await control(env, 'POST', 'reset')).status).toBe(200)
      expect(await api.total(`/chambers/${BIG_CHAMBER}/members`)).toBe(total)
      const get = await control(env, 'GET', 'reset')
      expect(get.status).toBe(405)
      expect(get.headers.get('allow')).toBe('POST')
    })
  })
})

describe('POST /_sandbox/reset with --data', () => {
  const dir = useTempDir()

  it('resets the file, for the next start and for another sandbox sharing it', async () => {
    const dataFile = join(dir(), 'sandbox.db')
    await withSandbox({ dataFile, empty: true }, async (env) => {
      await withSandbox({ dataFile }, async (peer) => {
        const api = env.api('v2')
        await api.create('/chambers', { name: 'Kept Until Reset', type: 'hq', address: {} })
        expect(await peer.api('v2').listAll('/chambers')).toHaveLength(1)
        expect((await control(env, 'POST', 'reset')).body).toMatchObject({ chambers: 0 })
        expect(await peer.api('v2').listAll('/chambers')).toEqual([])
      })
    })
    await withSandbox({ dataFile }, async (env) => {
      expect(await env.api('v2').listAll('/chambers')).toEqual([])
    })
  })
})

describe('GET /_sandbox/requests', () => {
  it('lists the API requests with method, path, query, status and body, secrets redacted', async () => {
    await withSandbox({ clientSecret: 'hush-hush-secret' }, async (env) => {
      const api = env.api('v2')
      await api.post('/auth/token', credentialsBody(env.sandbox), { token: null })
      await api.send('POST', '/auth/token', {
        token: null,
        body: 'grant_type=client_credentials',
        headers: {
          authorization: basicAuth('sandbox-client', 'hush-hush-secret'),
          'content-type': 'application/x-www-form-urlencoded',
        },
      })
      await api.get('/chambers', { 'filter[type]': 'hq', access_token: 'leaked-in-the-query' })
      await api.post(`/chambers/${BIG_CHAMBER}/members`, MEMBER)
      await control(env, 'GET', 'health')
      const logged = await requests(env)
      const text = JSON.stringify(logged)
      expect(text).not.toContain('hush-hush-secret')
      expect(text).not.toContain('leaked-in-the-query')
      expect(text).not.toContain(await api.accessToken())
      expect(logged.map(({ method, path, status }) => [method, path, status])).toEqual([
        ['POST', '/v2/auth/token', 200],
        ['POST', '/v2/auth/token', 200],
        ['POST', '/v2/auth/token', 200],
        ['GET', '/v2/chambers', 200],
        ['POST', `/v2/chambers/${BIG_CHAMBER}/members`, 201],
      ])
      expect(logged[0]!.body).toEqual({
        ...credentialsBody(env.sandbox),
        client_secret: '[redacted]',
      })
      expect(logged[1]!.body).toBe('grant_type=client_credentials')
      expect(logged[3]!).toMatchObject({
        query: { 'filter[type]': 'hq', access_token: '[redacted]' },
        body: null,
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      })
      expect(logged[4]!.body).toEqual(MEMBER)
      expect(await requests(env, '?limit=2')).toEqual(logged.slice(-2))
    })
  })

  it(`keeps the last ${REQUESTS_KEPT} requests and ${BODY_KEPT} characters of a body`, async () => {
    await withSandbox({}, async (env) => {
      const api = env.api('v2')
      const big = { ...MEMBER, note: 'x'.repeat(BODY_KEPT) }
      await api.post(`/chambers/${BIG_CHAMBER}/members`, big)
      for (let i = 0; i < REQUESTS_KEPT; i++) await api.get('/chambers', { page: i + 1 })
      const logged = await requests(env)
      expect(logged).toHaveLength(REQUESTS_KEPT)
      // The token request and the large body went first.
      expect(logged[0]!.query).toEqual({ page: '1' })
      expect(logged.at(-1)!.query).toEqual({ page: String(REQUESTS_KEPT) })
      await control(env, 'POST', 'reset')
      await api.post(`/chambers/${BIG_CHAMBER}/members`, big)
      const [cut] = await requests(env)
      expect(cut!.body_truncated).toBe(true)
      expect(cut!.body).toHaveLength(BODY_KEPT)
    })
  })

  it.each(['0', '101', 'x'])('answers 422 for limit=%s', async (limit) => {
    await withSandbox({}, async (env) => {
      const reply = await fetch(`${env.sandbox.url}/_sandbox/requests?limit=${limit}`)
      expectFieldError(
        { status: reply.status, headers: reply.headers, body: await reply.json() },
        'limit',
      )
    })
  })

  it('answers 404 naming the endpoints for another /_sandbox/ path', async () => {
    await withSandbox({}, async (env) => {
      const reply = await control(env, 'GET', 'nothing')
      expect(reply.status).toBe(404)
      expect(reply.body.error).toMatch(/health, reset, requests/)
      expect((await fetch(`${env.sandbox.url}/_sandbox`)).status).toBe(404)
      // Questions to the sandbox itself are not what a script sent to the API.
      expect(await requests(env)).toEqual([])
    })
  })
})
