// What the transport tells its watcher while an exchange waits (each attempt as it leaves, then
// the end, once), and what the final error says after retries: the attempts and the time they
// took in all, on an injected clock.
import { MockAgent } from 'undici'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TokenManager } from '../../src/api/auth.js'
import { createClient } from '../../src/api/client.js'
import type { WatchExchange } from '../../src/api/transport.js'
import { failure } from '../helpers/failure.js'

const ORIGIN = 'http://api.test'

let agent: MockAgent
let now: number
let seen: string[]

beforeEach(() => {
  agent = new MockAgent()
  agent.disableNetConnect()
  now = 0
  seen = []
})

afterEach(async () => {
  agent.assertNoPendingInterceptors()
  await agent.close()
})

const watch: WatchExchange = ({ host, method }) => {
  seen.push(`${method} ${host}`)
  return {
    attempt: (attempt, attempts) => void seen.push(`attempt ${attempt} of ${attempts}`),
    end: () => void seen.push('end'),
  }
}

// Each backoff (none: no jitter drawn) moves the clock on by the time of an attempt.
const ATTEMPT_MS = 6750

function client(timeoutMs = 4000) {
  return createClient({
    baseUrl: `${ORIGIN}/v2`,
    userAgent: 'chamberctl/test',
    dispatcher: agent,
    tokens: new TokenManager({ cached: { token: 'good' } }),
    timeoutMs,
    watch,
    now: () => now,
    sleep: async (ms) => void (now += ms + ATTEMPT_MS),
    random: () => 0,
  })
}

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5000'), { code: 'ECONNREFUSED' })
const json = { headers: { 'content-type': 'application/json' } }

describe('the watcher of an exchange', () => {
  it('hears each attempt of a GET, of 3, and the end once', async () => {
    agent.get(ORIGIN).intercept({ path: '/v2/chambers' }).replyWithError(refused()).times(3)
    await failure(client().chambers.list())
    expect(seen).toEqual([
      'GET api.test',
      'attempt 1 of 3',
      'attempt 2 of 3',
      'attempt 3 of 3',
      'end',
    ])
  })

  it('hears a create as one attempt, and its second after a 429 as 2 of 3', async () => {
    const pool = agent.get(ORIGIN)
    pool
      .intercept({ path: '/v2/chambers', method: 'POST' })
      .reply(429, { error: 'slow down' }, { headers: { 'retry-after': '1' } })
    pool.intercept({ path: '/v2/chambers', method: 'POST' }).reply(201, { id: 'c1' }, json)
    await client().chambers.create({ name: 'x', type: 'hq', address: {} })
    expect(seen).toEqual(['POST api.test', 'attempt 1 of 1', 'attempt 2 of 3', 'end'])
  })

  it('hears the end of an answered exchange too', async () => {
    agent.get(ORIGIN).intercept({ path: '/v2/chambers/c1' }).reply(200, { id: 'c1' }, json)
    await client().chambers.get('c1')
    expect(seen).toEqual(['GET api.test', 'attempt 1 of 3', 'end'])
  })
})

describe('the final error after retries', () => {
  it('names the attempts and the time they took', async () => {
    agent.get(ORIGIN).intercept({ path: '/v2/chambers' }).replyWithError(refused()).times(3)
    const error = await failure(client().chambers.list())
    expect(error.message).toBe(
      'cannot reach api.test after 3 attempts in 13.5 s: connect ECONNREFUSED 127.0.0.1:5000',
    )
  })

  it('no answer from a server that took every request and answered none in time', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/v2/chambers' })
      .reply(200, { data: [] }, json)
      .delay(2000)
      .times(3)
    const error = await failure(client(20).chambers.list())
    expect(error.code).toBe('timeout')
    expect(error.message).toBe(
      'no answer from api.test after 3 attempts in 13.5 s (each waited 0.02 s)',
    )
  })

  it('says nothing of attempts when there was one', async () => {
    agent.get(ORIGIN).intercept({ path: '/v2/chambers', method: 'POST' }).replyWithError(refused())
    const error = await failure(client().chambers.create({ name: 'x', type: 'hq', address: {} }))
    expect(error.message).toBe(
      'cannot reach api.test: connect ECONNREFUSED 127.0.0.1:5000 (POST /v2/chambers was not sent)',
    )
  })
})
