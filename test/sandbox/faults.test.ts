// Injected latency and failures, the request log, and close().
import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import type { RequestLogEntry } from '../../src/sandbox/server.js'
import {
  BIG_CHAMBER,
  VERSIONS,
  credentialsBody,
  cycle,
  openSandbox,
  withSandbox,
} from './helpers.js'

// With failRate 1 the first random() call decides to fail and the second picks the answer.
describe.each(VERSIONS)('failRate on %s', (version) => {
  it.each([
    [0, 500, null],
    [0.4, 503, '1'],
    [0.9, 429, '1'],
  ])('answers %d → %d with Retry-After %s', async (pick, status, retryAfter) => {
    await withSandbox({ failRate: 1, random: cycle(0.5, pick) }, async (env) => {
      const api = env.api(version)
      for (const reply of [
        await api.get('/chambers', {}, { token: null }),
        await api.post('/auth/token', credentialsBody(env.sandbox), { token: null }),
      ]) {
        expect(reply.status).toBe(status)
        expect(reply.body).toEqual({ error: expect.stringMatching(/injected/) })
        expect(reply.headers.get('retry-after')).toBe(retryAfter)
      }
    })
  })

  it('fails only the share of requests that random() puts under the rate', async () => {
    // Token request: 0.7 is not under 0.5, it goes through; then a failure (0.2, pick 0.9 → 429);
    // then another pass.
    await withSandbox({ failRate: 0.5, random: cycle(0.7, 0.2, 0.9, 0.5) }, async (env) => {
      const api = env.api(version)
      await api.accessToken()
      expect((await api.list('/chambers')).status).toBe(429)
      expect((await api.list('/chambers')).status).toBe(200)
    })
  })
})

describe('latencyMs', () => {
  it('still answers every route', async () => {
    await withSandbox({ latencyMs: 5 }, async (env) => {
      const api = env.api('v2')
      expect((await api.list('/chambers')).status).toBe(200)
      expect((await api.get(`/chambers/${BIG_CHAMBER}`)).body.id).toBe(BIG_CHAMBER)
      const json = { name: 'Slow', type: 'hq', address: {} }
      expect((await api.post('/chambers', json)).status).toBe(201)
    })
  })
})

describe('onRequest', () => {
  it('logs every request with its method, path and status', async () => {
    const log: RequestLogEntry[] = []
    await withSandbox({ onRequest: (entry) => log.push(entry) }, async (env) => {
      const api = env.api('v2')
      await api.list('/chambers', { page: 2 })
      await api.get('/chambers/ch_9999')
    })
    expect(log.map(({ method, path, status }) => [method, path, status])).toEqual([
      ['POST', '/v2/auth/token', 200],
      ['GET', '/v2/chambers?page=2', 200],
      ['GET', '/v2/chambers/ch_9999', 404],
    ])
    expect(log.every((entry) => Number.isInteger(entry.ms) && entry.ms >= 0)).toBe(true)
  })
})

function connectionError(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(undefined)
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code))
  })
}

describe('close()', () => {
  it('stops the server: later requests cannot connect', async () => {
    const { url, port } = await withSandbox({}, async (env) => {
      // A kept-alive connection from an earlier request must not hold close() up.
      expect((await env.api('v2').list('/chambers')).status).toBe(200)
      return env.sandbox
    })
    expect(await connectionError(port)).toBe('ECONNREFUSED')
    await expect(fetch(`${url}/v2/chambers`)).rejects.toThrow()
  })

  // An answered body is drained after the answer (a 413); its connection turns idle only then,
  // after close() has closed the idle ones. close() used to wait out the server's 5 s keep-alive
  // timeout: the 2 s limit guards against that wait, it measures nothing.
  it('closes a connection whose refused body ends while it is closing', async () => {
    const env = await openSandbox()
    const token = await env.api('v2').accessToken()
    const socket = connect(env.sandbox.port, '127.0.0.1')
    const closed = new Promise((resolve) => socket.once('close', resolve))
    const answer = new Promise<string>((resolve) =>
      socket.once('data', (data) => resolve(`${data}`)),
    )
    const length = 2 * 1024 * 1024
    socket.write(
      `POST /v2/chambers HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{`,
    )
    expect(await answer).toMatch(/^HTTP\/1\.1 413 /)
    const closing = env.close()
    socket.write(' '.repeat(length - 1))
    await closing
    await closed
  }, 2_000)
})
