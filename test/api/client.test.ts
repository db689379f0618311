import { Agent, MockAgent } from 'undici'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MAX_TOKEN_LIFETIME_S, TokenManager } from '../../src/api/auth.js'
import { createClient, requestToken } from '../../src/api/client.js'
import { ExitCode, describeError } from '../../src/errors.js'
import { startFakeApi } from '../helpers/fake-api.js'
import { failure } from '../helpers/failure.js'
import { paginate } from '../../src/api/paginate.js'
import { retryAfter } from '../../src/api/transport.js'
import { FAR_ZONES, inTimeZone } from '../helpers/time-zone.js'

const ORIGIN = 'http://api.test'
const BASE = `${ORIGIN}/v2`

let agent: MockAgent
let sleeps: number[]

beforeEach(() => {
  agent = new MockAgent()
  agent.disableNetConnect()
  sleeps = []
})

afterEach(async () => {
  agent.assertNoPendingInterceptors()
  await agent.close()
})

function client(tokens = new TokenManager({ cached: { token: 'good' } }), timeoutMs = 5000) {
  return createClient({
    baseUrl: BASE,
    userAgent: 'chamberctl/test',
    dispatcher: agent,
    tokens,
    timeoutMs,
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0.5,
  })
}

const pool = () => agent.get(ORIGIN)
const json = { headers: { 'content-type': 'application/json' } }

function envelope(ids: string[], page: number, perPage: number, total: number) {
  return {
    data: ids.map((id) => ({ id, name: `chamber ${id}` })),
    meta: { current_page: page, per_page: perPage, total },
  }
}

function ids(from: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `c${from + i}`)
}

describe('requests', () => {
  it('sends the user agent, the bearer token and percent-encoded ids', async () => {
    pool()
      .intercept({
        path: '/v2/chambers/a%2Fb%20c',
        headers: { 'user-agent': 'chamberctl/test', authorization: 'Bearer good' },
      })
      .reply(200, { id: 'a/b c', extra: { kept: true } }, json)
    const chamber = await client().chambers.get('a/b c')
    expect(chamber).toEqual({ id: 'a/b c', extra: { kept: true } })
  })

  it('maps list parameters to the API names', async () => {
    pool()
      .intercept({
        path: '/v2/chambers/c1/events',
        query: {
          page: '2',
          per_page: '5',
          'filter[status]': 'past',
          'filter[date_from]': '2026-01-01',
          'filter[date_to]': '2026-02-01',
        },
      })
      .reply(200, envelope([], 2, 5, 0), json)
    const events = await client().events.list('c1', {
      page: 2,
      perPage: 5,
      status: 'past',
      from: '2026-01-01',
      to: '2026-02-01',
    })
    expect(events.meta.current_page).toBe(2)
  })
})

describe('unexpected bodies become typed errors', () => {
  it('an HTML page from a proxy', async () => {
    pool()
      .intercept({ path: '/v2/chambers' })
      .reply(502, '<html><body><h1>502 Bad Gateway</h1></body></html>', {
        headers: { 'content-type': 'text/html' },
      })
      .times(3)
    const error = await failure(client().chambers.list())
    expect(error.code).toBe('server_error')
    expect(error.status).toBe(502)
    expect(error.message).toContain('502 Bad Gateway')
    expect(sleeps).toHaveLength(2)
  })

  it('truncated JSON on a 200', async () => {
    pool().intercept({ path: '/v2/chambers' }).reply(200, '{"data": [{"id": "c1"', json)
    const error = await failure(client().chambers.list())
    expect(error.code).toBe('unexpected_response')
    expect(error.status).toBe(200)
    expect(error.excerpt).toBe('{"data": [{"id": "c1"')
  })

  it('a 200 without the envelope', async () => {
    pool()
      .intercept({ path: '/v2/chambers' })
      .reply(200, [{ id: 'c1' }], json)
    const error = await failure(client().chambers.list())
    expect(error.code).toBe('unexpected_response')
    expect(error.message).toContain('unexpected answer')
  })

  it('a 404 with the spec body', async () => {
    pool().intercept({ path: '/v2/chambers/x' }).reply(404, { error: 'chamber x not found' }, json)
    const error = await failure(client().chambers.get('x'))
    expect(error.code).toBe('not_found')
    expect(error.message).toBe('chamber x not found (HTTP 404)')
  })

  it('a 404 of any path under a chamber id: one sentence whatever the server wrote', async () => {
    const laravel = { message: 'No query results for model [App\\Models\\Chamber] 99' }
    const paths = ['/v2/chambers/99', '/v2/chambers/99/members', '/v2/chambers/99/events']
    for (const path of paths)
      pool()
        .intercept({ path: (p) => p.startsWith(path) })
        .reply(404, laravel, json)
    const lines: string[] = []
    const traced = createClient({
      baseUrl: BASE,
      userAgent: 't',
      dispatcher: agent,
      tokens: new TokenManager({ cached: { token: 'good' } }),
      trace: (line) => lines.push(line),
    })
    const errors = [
      await failure(traced.chambers.get('99')),
      await failure(traced.members.list('99')),
      await failure(traced.events.list('99')),
    ]
    for (const error of errors) {
      expect(error.code).toBe('not_found')
      expect(error.status).toBe(404)
      expect(error.message).toBe('chamber 99 not found (HTTP 404)')
    }
    // The server's own text stays in the --debug trace.
    expect(lines.filter((line) => line.includes('No query results for model'))).toHaveLength(3)
  })

  it('a 422 keeps its fields', async () => {
    pool()
      .intercept({ path: '/v2/chambers' })
      .reply(422, { error: 'invalid query parameters', fields: { per_page: ['too big'] } }, json)
    const error = await failure(client().chambers.list())
    expect(error.code).toBe('validation_failed')
    expect(error.fields).toEqual({ per_page: ['too big'] })
  })
})

describe('retries', () => {
  it('retries a GET on 503 and honours Retry-After in seconds', async () => {
    pool()
      .intercept({ path: '/v2/chambers' })
      .reply(503, { error: 'busy' }, { headers: { 'retry-after': '2' } })
    pool()
      .intercept({ path: '/v2/chambers' })
      .reply(200, envelope(['c1'], 1, 20, 1), json)
    const page = await client().chambers.list()
    expect(page.data.map((c) => c.id)).toEqual(['c1'])
    expect(sleeps).toEqual([2000])
  })

  it('caps Retry-After at 60 s and accepts an HTTP date', async () => {
    const later = new Date(Date.now() + 3_600_000).toUTCString()
    pool()
      .intercept({ path: '/v2/chambers' })
      .reply(429, { error: 'slow down' }, { headers: { 'retry-after': later } })
    pool()
      .intercept({ path: '/v2/chambers' })
      .reply(200, envelope([], 1, 20, 0), json)
    await client().chambers.list()
    expect(sleeps).toEqual([60_000])
  })

  // RFC 9110's three forms of an HTTP date are all GMT; asctime's does not say so.
  it.each([
    'Sun, 06 Nov 1994 08:49:37 GMT',
    'Sunday, 06-Nov-94 08:49:37 GMT',
    'Sun Nov  6 08:49:37 1994',
  ])('reads the Retry-After date %j as GMT in every time zone', async (date) => {
    const now = Date.UTC(1994, 10, 6, 8, 49, 7)
    for (const zone of FAR_ZONES) {
      expect(await inTimeZone(zone, () => retryAfter(date, now))).toBe(30_000)
    }
  })

  it('retries connection errors with growing backoff, at most 3 attempts', async () => {
    pool()
      .intercept({ path: '/v2/chambers' })
      .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
      .times(3)
    const error = await failure(client().chambers.list())
    expect(error.code).toBe('connection_failed')
    expect(sleeps).toEqual([150, 300])
  })

  it('names a process out of file descriptors as such, not as a server it cannot reach', async () => {
    const emfile = Object.assign(new Error('connect EMFILE 127.0.0.1:4010 - Local'), {
      code: 'EMFILE',
    })
    pool().intercept({ path: '/v2/chambers', method: 'POST' }).replyWithError(emfile)
    const error = await failure(client().chambers.create({ name: 'x', type: 'hq', address: {} }))
    expect(error.code).toBe('too_many_open_files')
    expect(error.message).toBe(
      'too many open files (EMFILE) to connect to api.test: raise the limit (ulimit -n) or ' +
        'lower --concurrency; POST /v2/chambers was not sent',
    )
    expect(describeError(error, (text) => text).exitCode).toBe(ExitCode.failure)
    expect(sleeps).toEqual([])
  })

  it('reads an answer that starts with a byte order mark as UTF-8 text', async () => {
    const record = JSON.stringify({ id: 'c1', name: 'Kammer Köln ✓' })
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(record)])
    pool().intercept({ path: '/v2/chambers/c1' }).reply(200, bytes, json)
    expect(await client().chambers.get('c1')).toEqual({ id: 'c1', name: 'Kammer Köln ✓' })
  })

  it('does not retry a 500', async () => {
    pool().intercept({ path: '/v2/chambers' }).reply(500, { error: 'boom' }, json)
    const error = await failure(client().chambers.list())
    expect(error.code).toBe('server_error')
    expect(sleeps).toEqual([])
  })

  it('does not retry a POST', async () => {
    pool().intercept({ path: '/v2/chambers', method: 'POST' }).reply(503, { error: 'busy' }, json)
    const error = await failure(
      client().transport.send({ method: 'POST', path: '/chambers', body: { name: 'x' } }),
    )
    expect(error.status).toBe(503)
    expect(sleeps).toEqual([])
  })

  it('sends a POST again after a 429, which was not applied, honouring Retry-After', async () => {
    pool()
      .intercept({ path: '/v2/chambers/c1/members', method: 'POST' })
      .reply(429, { error: 'slow down' }, { headers: { 'retry-after': '3' } })
    pool()
      .intercept({ path: '/v2/chambers/c1/members', method: 'POST' })
      .reply(429, { error: 'slow down' }, json)
    pool()
      .intercept({ path: '/v2/chambers/c1/members', method: 'POST' })
      .reply(201, { id: 'm1' }, json)
    const member = { name: 'A', email: 'a@example.com', membership_type: 'standard' }
    expect(await client().members.add('c1', member)).toEqual({ id: 'm1' })
    // Retry-After, then the backoff of the second attempt (0.5 of 0..600 ms).
    expect(sleeps).toEqual([3000, 300])
  })

  it('gives up on a POST after 3 answers of 429', async () => {
    pool()
      .intercept({ path: '/v2/chambers', method: 'POST' })
      .reply(429, { error: 'slow down' }, json)
      .times(3)
    const error = await failure(client().chambers.create({ name: 'x', type: 'hq', address: {} }))
    expect(error.code).toBe('rate_limited')
    expect(sleeps).toHaveLength(2)
  })

  it('hands a paced POST its 429 at once, with the Retry-After to wait', async () => {
    const later = new Date(Date.now() + 3_600_000).toUTCString()
    pool()
      .intercept({ path: '/v2/chambers', method: 'POST' })
      .reply(429, { error: 'slow down' }, { headers: { 'retry-after': later } })
    const error = await failure(
      client().chambers.create({ name: 'x', type: 'hq', address: {} }, { paced: true }),
    )
    expect(error).toMatchObject({ code: 'rate_limited', status: 429, retryAfterMs: 60_000 })
    expect(sleeps).toEqual([])
  })

  it('times out each attempt and says so', async () => {
    // A server that never answers: only the timeout ends each attempt. The attempts are counted
    // as the client hands them to its dispatcher: on a loaded machine a 20 ms attempt can end
    // before the server has read it, so the server's count is not the client's.
    const silent = await startFakeApi({ answer: () => 'hang' })
    const real = new Agent()
    let attempts = 0
    const counting = real.compose((dispatch) => (options, handler) => {
      attempts++
      return dispatch(options, handler)
    })
    try {
      const error = await failure(
        createClient({
          baseUrl: silent.baseUrl(),
          userAgent: 'chamberctl/test',
          tokens: new TokenManager({ cached: { token: 'good' } }),
          timeoutMs: 20,
          dispatcher: counting,
          sleep: async (ms) => void sleeps.push(ms),
        }).chambers.list(),
      )
      expect(error.code).toBe('timeout')
      expect(sleeps).toHaveLength(2)
      expect(attempts).toBe(3)
    } finally {
      await real.close()
      await silent.close()
    }
  })
})

describe('tokens', () => {
  const tokenReply = (token: string) => ({
    access_token: token,
    token_type: 'Bearer',
    expires_in: 3600,
  })

  function refreshing(cached?: { token: string; expiresAt?: number }, saved: unknown[] = []) {
    const tokens: TokenManager = new TokenManager({
      cached,
      obtain: () => requestToken(c.transport, 'id', 'secret'),
      share: async (_replacing, fetch) => {
        const token = await fetch()
        saved.push(token)
        return token
      },
    })
    const c = client(tokens)
    return c
  }

  it('obtains a token when the cached one is about to expire', async () => {
    pool()
      .intercept({
        path: '/v2/auth/token',
        method: 'POST',
        body: JSON.stringify({
          client_id: 'id',
          client_secret: 'secret',
          grant_type: 'client_credentials',
        }),
      })
      .reply(200, tokenReply('fresh'), json)
    pool()
      .intercept({ path: '/v2/chambers', headers: { authorization: 'Bearer fresh' } })
      .reply(200, envelope([], 1, 20, 0), json)
    const saved: unknown[] = []
    await refreshing({ token: 'old', expiresAt: Date.now() + 1000 }, saved).chambers.list()
    expect(saved).toEqual([{ token: 'fresh', expiresAt: expect.any(Number) }])
  })

  it('refreshes once and retries once on a 401', async () => {
    pool()
      .intercept({ path: '/v2/chambers', headers: { authorization: 'Bearer stale' } })
      .reply(401, { error: 'invalid_token' }, json)
    pool()
      .intercept({ path: '/v2/auth/token', method: 'POST' })
      .reply(200, tokenReply('fresh'), json)
    pool()
      .intercept({ path: '/v2/chambers', headers: { authorization: 'Bearer fresh' } })
      .reply(200, envelope(['c1'], 1, 20, 1), json)
    const page = await refreshing({ token: 'stale' }).chambers.list()
    expect(page.data).toHaveLength(1)
  })

  it('gives up after the one refresh', async () => {
    pool().intercept({ path: '/v2/chambers' }).reply(401, { error: 'invalid_token' }, json).times(2)
    pool()
      .intercept({ path: '/v2/auth/token', method: 'POST' })
      .reply(200, tokenReply('fresh'), json)
    const error = await failure(refreshing({ token: 'stale' }).chambers.list())
    expect(error.code).toBe('unauthorized')
  })

  it('a fixed token that is rejected is not refreshed', async () => {
    pool().intercept({ path: '/v2/chambers' }).reply(401, { error: 'invalid_token' }, json)
    const error = await failure(
      client(new TokenManager({ cached: { token: 'env' } })).chambers.list(),
    )
    expect(error.code).toBe('unauthorized')
  })

  it('invalid_client from the token endpoint', async () => {
    pool()
      .intercept({ path: '/v2/auth/token', method: 'POST' })
      .reply(
        401,
        { error: 'invalid_client', error_description: 'client authentication failed' },
        json,
      )
    const error = await failure(refreshing().chambers.list())
    expect(error.code).toBe('invalid_client')
    expect(error.message).toBe('invalid_client: client authentication failed (HTTP 401)')
  })

  it('pages that hit a 401 together share one refresh, even in the middle of --all', async () => {
    pool()
      .intercept({ path: '/v2/chambers', query: { page: '1', per_page: '2' } })
      .reply(200, envelope(ids(1, 2), 1, 2, 6), json)
    for (const page of [2, 3]) {
      pool()
        .intercept({
          path: '/v2/chambers',
          query: { page: String(page), per_page: '2' },
          headers: { authorization: 'Bearer stale' },
        })
        .reply(401, { error: 'invalid_token' }, json)
    }
    pool()
      .intercept({ path: '/v2/auth/token', method: 'POST' })
      .reply(200, tokenReply('fresh'), json)
    for (const page of [2, 3]) {
      pool()
        .intercept({
          path: '/v2/chambers',
          query: { page: String(page), per_page: '2' },
          headers: { authorization: 'Bearer fresh' },
        })
        .reply(200, envelope(ids(page * 2 - 1, 2), page, 2, 6), json)
    }
    const c = refreshing({ token: 'stale' })
    const records = []
    for await (const chamber of paginate((p) => c.chambers.list(p), { all: true, perPage: 2 })) {
      records.push(chamber.id)
    }
    expect(records).toEqual(ids(1, 6))
  })
})

describe('pagination over the client', () => {
  it('--limit fetches only the pages it needs', async () => {
    pool()
      .intercept({ path: '/v2/chambers', query: { page: '1', per_page: '100' } })
      .reply(200, envelope(ids(1, 100), 1, 100, 250), json)
    pool()
      .intercept({ path: '/v2/chambers', query: { page: '2', per_page: '100' } })
      .reply(200, envelope(ids(101, 100), 2, 100, 250), json)
    const records = []
    for await (const chamber of paginate((p) => client().chambers.list(p), { limit: 150 })) {
      records.push(chamber.id)
    }
    expect(records).toEqual(ids(1, 150))
  })

  it('trusts a clamped per_page from the server', async () => {
    pool()
      .intercept({ path: '/v2/chambers', query: { page: '1', per_page: '100' } })
      .reply(200, envelope(ids(1, 50), 1, 50, 120), json)
    pool()
      .intercept({ path: '/v2/chambers', query: { page: '2', per_page: '50' } })
      .reply(200, envelope(ids(51, 50), 2, 50, 120), json)
    pool()
      .intercept({ path: '/v2/chambers', query: { page: '3', per_page: '50' } })
      .reply(200, envelope(ids(101, 20), 3, 50, 120), json)
    const records = []
    for await (const chamber of paginate((p) => client().chambers.list(p), { all: true })) {
      records.push(chamber.id)
    }
    expect(records).toEqual(ids(1, 120))
  })
})

describe('token lifetimes a server may send', () => {
  const reply = (expires: unknown) => ({
    access_token: 't',
    token_type: 'Bearer',
    expires_in: expires,
  })

  it.each([
    ['seconds as a number', 60, 60_000],
    ['seconds as a numeric string', '60', 60_000],
    ['a lifetime of a month, as it is', MAX_TOKEN_LIFETIME_S, MAX_TOKEN_LIFETIME_S * 1000],
    ['a lifetime of years, as a month', 10 ** 9, MAX_TOKEN_LIFETIME_S * 1000],
    ['a lifetime past any date, as a month', 1e16, MAX_TOKEN_LIFETIME_S * 1000],
    ['nothing at all', undefined, undefined],
  ])('reads %s', async (_what, expiresIn, lifetime) => {
    pool().intercept({ path: '/v2/auth/token', method: 'POST' }).reply(200, reply(expiresIn), json)
    const before = Date.now()
    const tokens: TokenManager = new TokenManager({
      obtain: () => requestToken(c.transport, 'id', 'secret'),
    })
    const c = client(tokens)
    expect(await tokens.token()).toBe('t')
    const after = Date.now()
    const expiresAt = tokens.cached?.expiresAt
    if (lifetime === undefined) expect(expiresAt).toBeUndefined()
    else {
      expect(expiresAt! - before).toBeGreaterThanOrEqual(lifetime)
      expect(expiresAt! - after).toBeLessThanOrEqual(lifetime)
    }
  })
})

describe('ids in paths', () => {
  it('refuses an id, from the user or a server, that would leave its path segment, unsent', async () => {
    const member = { name: 'Ada', email: 'ada@example.com', membership_type: 'standard' }
    for (const id of ['..', '.', '', ' ', 'a\u0000b']) {
      const error = await failure(client().members.add(id, member))
      expect(error.message).toMatch(
        /^chamber id .* (cannot be \. or \.\.|is empty|is only spaces|contains a control character)$/,
      )
      expect((error as unknown as { exitCode: number }).exitCode).toBe(2)
    }
  })

  it('keeps an id of any other characters in one segment', async () => {
    pool()
      .intercept({ path: '/v2/chambers/chm%3A9b%2F2e' })
      .reply(200, { id: 'chm:9b/2e', name: 'Odd' }, json)
    expect(await client().chambers.get('chm:9b/2e')).toMatchObject({ id: 'chm:9b/2e' })
  })
})
