// GET /_sandbox/health: outside the API and its auth, and never delayed or failed by --latency
// and --fail-rate, so that a health check says whether the server is up and nothing else.
import { describe, expect, it } from 'vitest'
import { withSandbox } from './helpers.js'

describe('/_sandbox/health', () => {
  it('answers 200 with no token, even when every API request is made to fail', async () => {
    await withSandbox({ failRate: 1, random: () => 0 }, async (env) => {
      const health = await fetch(`${env.sandbox.url}/_sandbox/health`)
      expect(health.status).toBe(200)
      expect(await health.json()).toEqual({ status: 'ok' })
      const api = await fetch(`${env.sandbox.baseUrl('v2')}/chambers`)
      await api.body?.cancel()
      expect(api.status).toBe(500)
    })
  })

  it('answers GET and HEAD only', async () => {
    await withSandbox({}, async (env) => {
      const url = `${env.sandbox.url}/_sandbox/health`
      expect((await fetch(url, { method: 'HEAD' })).status).toBe(200)
      const post = await fetch(url, { method: 'POST' })
      expect(post.status).toBe(405)
      expect(post.headers.get('allow')).toBe('GET, HEAD')
      expect(await post.json()).toEqual({ error: expect.stringMatching(/GET/) })
    })
  })
})
