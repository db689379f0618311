// --cors: a browser page on the allowed origin can call the sandbox; without it nothing changes.
import { describe, expect, it } from 'vitest'
import { withSandbox } from './helpers.js'
import type { TestSandbox } from './helpers.js'

const ORIGIN = 'http://localhost:3000'

function preflight(env: TestSandbox, origin: string, headers = 'authorization, content-type') {
  return fetch(`${env.sandbox.baseUrl('v2')}/chambers`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': headers,
    },
  })
}

describe('--cors ORIGIN', () => {
  it('answers a preflight 204 without a token, allowing the methods and headers of the API', async () => {
    await withSandbox({ cors: ORIGIN, failRate: 1, random: () => 0 }, async (env) => {
      const reply = await preflight(env, ORIGIN, 'Authorization, Content-Type, Idempotency-Key')
      expect(reply.status).toBe(204)
      expect(await reply.text()).toBe('')
      expect(reply.headers.get('access-control-allow-origin')).toBe(ORIGIN)
      expect(reply.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, OPTIONS')
      expect(reply.headers.get('access-control-allow-headers')).toBe(
        'Authorization, Content-Type, Idempotency-Key',
      )
      expect(reply.headers.get('vary')).toMatch(/Origin/)
    })
  })

  it('adds Access-Control-Allow-Origin to every answer to that origin, errors included', async () => {
    await withSandbox({ cors: ORIGIN }, async (env) => {
      const api = env.api('v2')
      const ok = await api.get('/chambers', {}, { headers: { origin: ORIGIN } })
      expect(ok.status).toBe(200)
      expect(ok.headers.get('access-control-allow-origin')).toBe(ORIGIN)
      expect(ok.headers.get('access-control-expose-headers')).toMatch(/Location/)
      const denied = await api.get('/chambers', {}, { token: null, headers: { origin: ORIGIN } })
      expect(denied.status).toBe(401)
      expect(denied.headers.get('access-control-allow-origin')).toBe(ORIGIN)
      const health = await fetch(`${env.sandbox.url}/_sandbox/health`, {
        headers: { origin: ORIGIN },
      })
      expect(health.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    })
  })

  it('allows no other origin', async () => {
    await withSandbox({ cors: ORIGIN }, async (env) => {
      const reply = await preflight(env, 'http://evil.example')
      expect(reply.headers.get('access-control-allow-origin')).toBeNull()
      const get = await env
        .api('v2')
        .get('/chambers', {}, { headers: { origin: 'http://evil.example' } })
      expect(get.headers.get('access-control-allow-origin')).toBeNull()
    })
  })

  it('allows every origin with *', async () => {
    await withSandbox({ cors: '*' }, async (env) => {
      const reply = await preflight(env, 'http://anywhere.example')
      expect(reply.status).toBe(204)
      expect(reply.headers.get('access-control-allow-origin')).toBe('*')
      expect(reply.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type')
    })
  })

  it('changes nothing without --cors: the preflight is an API request needing a token', async () => {
    await withSandbox({}, async (env) => {
      const reply = await preflight(env, ORIGIN)
      expect(reply.status).toBe(401)
      expect(reply.headers.get('access-control-allow-origin')).toBeNull()
      const get = await env.api('v2').get('/chambers', {}, { headers: { origin: ORIGIN } })
      expect(get.headers.get('access-control-allow-origin')).toBeNull()
    })
  })
})
