import { describe, expect, it } from 'vitest'
import { createHttpAgent, ExchangeError, request } from '../../src/api/undici.js'
import { startFakeApi } from '../helpers/fake-api.js'

describe('the HTTP agent', () => {
  it('ends a kept-alive connection without formatting a stack trace', async () => {
    const server = await startFakeApi({ answer: () => ({ body: 'ok' }) })
    const agent = createHttpAgent({ connections: 1, connectTimeoutMs: 5000 })
    const answer = await request(agent.dispatcher, new URL(`${server.url}/`), {
      method: 'GET',
      headers: {},
      timeoutMs: 5000,
    })
    expect(answer.text).toBe('ok')
    // Formatting a stack computes the line ends of every script in it: in the bundle, 1.2 MB at
    // the end of every command that sent a request.
    const formatted: unknown[] = []
    const format = Error.prepareStackTrace
    Error.prepareStackTrace = (error, frames) => {
      formatted.push(error)
      return format ? format(error, frames) : String(error)
    }
    try {
      await agent.destroy()
    } finally {
      Error.prepareStackTrace = format
    }
    await server.close()
    expect(formatted).toEqual([])
  })

  // Node's own limit, given by chamberctl rather than read off node:http by undici.
  it('takes an answer whose headers fit in 16 KiB, and refuses one whose headers do not', async () => {
    let size = 0
    const server = await startFakeApi({
      answer: () => ({ headers: { 'x-filler': 'a'.repeat(size) }, body: 'ok' }),
    })
    const agent = createHttpAgent({ connections: 1, connectTimeoutMs: 5000 })
    const get = () =>
      request(agent.dispatcher, new URL(`${server.url}/`), {
        method: 'GET',
        headers: {},
        timeoutMs: 5000,
      })
    try {
      size = 15 * 1024
      expect((await get()).text).toBe('ok')
      size = 17 * 1024
      const refused = await get().catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(ExchangeError)
      expect(refused).toMatchObject({ kind: 'bad_headers' })
    } finally {
      await agent.destroy()
      await server.close()
    }
  })
})
