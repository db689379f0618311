// Tolerant reading (contract §9): lists need only `data`, records only what a command uses, and
// error bodies of any shape still name the server's code and description.
import { MockAgent } from 'undici'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TokenManager } from '../../src/api/auth.js'
import { createClient, requestToken } from '../../src/api/client.js'
import { failure } from '../helpers/failure.js'
import { pages, paginate } from '../../src/api/paginate.js'
import type { PageRequest } from '../../src/api/paginate.js'
import type { PageMeta } from '../../src/api/answers.js'
import { idText, isAnswerId } from '../../src/api/answers.js'
import { errorFromResponse, parseJsonText } from '../../src/api/responses.js'
import { describeError } from '../../src/errors.js'

const ORIGIN = 'http://api.test'
let agent: MockAgent

beforeEach(() => {
  agent = new MockAgent()
  agent.disableNetConnect()
})
afterEach(async () => {
  agent.assertNoPendingInterceptors()
  await agent.close()
})

const json = { headers: { 'content-type': 'application/json' } }
const pool = () => agent.get(ORIGIN)

function client(base = `${ORIGIN}/v2`) {
  return createClient({
    baseUrl: base,
    userAgent: 'test',
    dispatcher: agent,
    tokens: new TokenManager({ cached: { token: 't' } }),
    sleep: async () => {},
  })
}

describe('records are kept as the server sent them', () => {
  it('a chamber with a nested address, nulls, numbers and extra fields', async () => {
    const chamber = {
      id: 42,
      name: 'Köln',
      address: { city: 'Köln', region: null, geo: { lat: 50.9, tags: ['a', 1] } },
      hq_id: null,
      created_at: 1714550400,
      extra: [true, null, { deep: {} }],
    }
    pool().intercept({ path: '/v2/chambers/42' }).reply(200, chamber, json)
    expect(await client().chambers.get('42')).toEqual(chamber)
  })

  it('events without ids, members with any fields, meta with extras', async () => {
    const events = [{ status: 'upcoming', starts_at: '2030-01-01', venue: { room: 3 } }, {}]
    pool()
      .intercept({ path: '/v2/chambers/c1/events' })
      .reply(
        200,
        { data: events, meta: { current_page: 1, total: 2, per_page: 20, next: null } },
        json,
      )
    const page = await client().events.list('c1')
    expect(page.data).toEqual(events)
    expect(page.meta).toEqual({ current_page: 1, total: 2, per_page: 20 })
  })

  it.each<[unknown, PageMeta]>([
    [undefined, {}],
    [null, {}],
    [{ total: null, per_page: '20', current_page: 'one' }, { per_page: 20 }],
    [{ total: -1, per_page: 0, current_page: 1.5 }, {}],
    [{ total: '7', per_page: 2e300 }, { total: 7 }],
    ['meta', {}],
  ])('meta %j is read as %j', async (meta, expected) => {
    pool()
      .intercept({ path: '/v2/chambers' })
      .reply(200, { data: [{ id: 'a' }], ...(meta === undefined ? {} : { meta }) }, json)
    expect((await client().chambers.list()).meta).toEqual(expected)
  })

  it('a list without a data array, or with a record that is not an object, is refused', async () => {
    pool().intercept({ path: '/v2/chambers' }).reply(200, { items: [] }, json)
    const error = await failure(client().chambers.list())
    expect(error.code).toBe('unexpected_response')
    expect(error.message).toMatch(/^unexpected answer from the server \(HTTP 200\): data: /)
    pool()
      .intercept({ path: '/v2/chambers' })
      .reply(200, { data: [{ id: 'a' }, 'b'] }, json)
    expect((await failure(client().chambers.list())).message).toMatch(
      /: data\.1: must be an object/,
    )
  })

  it('keeps the digits of numbers JSON.parse would change', () => {
    const text = '{"id":12345678901234567890,"a":1.0,"b":1e3,"c":-0,"d":0.5,"e":"1.50"}'
    expect(JSON.stringify(parseJsonText(text))).toBe(text)
    const id = (parseJsonText(text) as { id: unknown }).id
    expect(isAnswerId(id) && idText(id)).toBe('12345678901234567890')
    expect(parseJsonText('{"n": 7}')).toEqual({ n: 7 })
  })

  it.each([
    ['alone', '12345678901234567890', '12345678901234567890'],
    ['in an array', '[1, 2.50]', '[1,2.50]'],
    ['nested, among strings with digits', '{"at":"2026-01-01T00:00:00.000Z","n":[{"m":-0}]}', null],
    ['pretty-printed', '{\n  "a": 1e3,\n  "b": [\n    1.0\n  ]\n}', '{"a":1e3,"b":[1.0]}'],
    ['after a string that looks like JSON', '{"s":"x\\": 1, ","n":100000000000000001}', null],
  ])('keeps the digits of a number %s', (_, text, compact) => {
    expect(JSON.stringify(parseJsonText(text))).toBe(compact ?? text)
  })
})

describe('a token answer needs only its token', () => {
  it.each([
    [{ access_token: 'x' }, undefined],
    [{ access_token: 'x', token_type: 'bearer', expires_in: '60' }, 60],
    [{ access_token: 'x', expires_in: null }, undefined],
    [{ access_token: 'x', expires_in: 'soon' }, undefined],
    [{ access_token: 'x', expires_in: 1e12 }, 1e12],
  ])('%j', async (body, expiresIn) => {
    pool().intercept({ path: '/v1/auth/token', method: 'POST' }).reply(200, body, json)
    const answer = await requestToken(client(`${ORIGIN}/v1`).transport, 'id', 'secret')
    expect(answer).toEqual({
      access_token: 'x',
      ...(expiresIn === undefined ? {} : { expires_in: expiresIn }),
    })
  })
})

describe('error bodies of any shape', () => {
  const TOKEN = { token: true }
  it.each<[number, string, { token?: boolean }, string, string, number]>([
    [
      401,
      '{"error": "invalid_client", "error_description": "Client authentication failed."}',
      TOKEN,
      'invalid_client',
      'invalid_client: Client authentication failed. (HTTP 401)',
      4,
    ],
    [400, '{"error": "invalid_client"}', TOKEN, 'invalid_client', 'invalid_client (HTTP 400)', 4],
    [
      400,
      '{"error": {"code": "unsupported_grant_type", "message": "Use client_credentials."}}',
      TOKEN,
      'unauthorized',
      'unsupported_grant_type: Use client_credentials. (HTTP 400)',
      4,
    ],
    [
      401,
      '<html><body><h1>401 Authorization Required</h1></body></html>',
      TOKEN,
      'unauthorized',
      'HTTP 401 from the server: <html><body><h1>401 Authorization Required</h1></body></html>',
      4,
    ],
    [400, 'Bad client', TOKEN, 'unauthorized', 'HTTP 400 from the server: Bad client', 4],
    [401, '', TOKEN, 'unauthorized', 'HTTP 401 from the server', 4],
    [503, '', TOKEN, 'server_error', 'HTTP 503 from the server', 1],
    [
      401,
      '{"error": {"code": "token_expired"}}',
      {},
      'unauthorized',
      'token_expired (HTTP 401)',
      4,
    ],
    [404, '{"error": "Chamber not found."}', {}, 'not_found', 'Chamber not found. (HTTP 404)', 3],
    [
      404,
      '{"title": "Not Found", "detail": "No chamber 7", "status": 404}',
      {},
      'not_found',
      'No chamber 7 (HTTP 404)',
      3,
    ],
    [
      404,
      '<!doctype html><p>nope</p>',
      {},
      'not_found',
      'HTTP 404 from the server: <!doctype html><p>nope</p>',
      3,
    ],
    [404, '[]', {}, 'not_found', 'HTTP 404 from the server: []', 3],
    [
      403,
      '{"code": "E_FORBIDDEN", "message": "Read-only key"}',
      {},
      'forbidden',
      'E_FORBIDDEN: Read-only key (HTTP 403)',
      4,
    ],
  ])('%i %s', (status, body, options, code, message, exitCode) => {
    const error = errorFromResponse(status, body, options)
    expect(error.code).toBe(code)
    expect(error.message).toBe(message)
    expect(describeError(error, (t) => t).exitCode).toBe(exitCode)
  })

  it.each<[string, Record<string, string[]>]>([
    ['{"error": "invalid", "fields": {"email": ["is bad"]}}', { email: ['is bad'] }],
    [
      '{"error": "invalid", "fields": {"email": "is bad", "n": 3}}',
      { email: ['is bad'], n: ['3'] },
    ],
    [
      '{"message": "The given data was invalid.", "errors": {"email": ["taken", {"message": "x"}]}}',
      { email: ['taken', 'x'] },
    ],
    [
      '{"errors": [{"source": {"pointer": "/data/attributes/name"}, "detail": "blank"}, {"field": "email", "message": "bad"}]}',
      { name: ['blank'], email: ['bad'] },
    ],
    ['{"error": {"code": "invalid", "fields": {"phone": [{"len": 3}]}}}', { phone: ['{"len":3}'] }],
  ])('422 fields from %s', (body, fields) => {
    const error = errorFromResponse(422, body)
    expect(error.code).toBe('validation_failed')
    expect(error.fields).toEqual(fields)
    expect(describeError(error, (t) => t).exitCode).toBe(2)
  })
})

describe('--all without a usable total', () => {
  function server(total: number, meta: (size: number) => unknown) {
    const requested: PageRequest[] = []
    const fetchPage = async (request: PageRequest) => {
      requested.push(request)
      const size = request.perPage ?? 20
      const start = (request.page - 1) * size
      const data = Array.from(
        { length: Math.max(0, Math.min(size, total - start)) },
        (_, i) => start + i,
      )
      return { data, meta: meta(size) as PageMeta }
    }
    return { fetchPage, requested }
  }

  async function collect<T>(records: AsyncIterable<T>): Promise<T[]> {
    const out: T[] = []
    for await (const record of records) out.push(record)
    return out
  }

  it('stops at the first short page', async () => {
    const s = server(250, (size) => ({ per_page: size }))
    expect(await collect(paginate(s.fetchPage, { all: true }))).toHaveLength(250)
    expect(s.requested.map((r) => r.page)).toEqual([1, 2, 3])
  })

  it('stops at the first empty page when the total divides evenly, and with no meta at all', async () => {
    const s = server(200, () => ({}))
    expect(await collect(paginate(s.fetchPage, { all: true }))).toHaveLength(200)
    expect(s.requested.map((r) => `${r.page}/${r.perPage}`)).toEqual(['1/100', '2/100', '3/100'])
  })

  it('--limit fetches no page it does not need', async () => {
    const s = server(1000, () => ({}))
    expect(await collect(paginate(s.fetchPage, { limit: 150 }))).toHaveLength(150)
    expect(s.requested.map((r) => r.page)).toEqual([1, 2])
  })

  it('hands out each page whole and cuts the last at the limit, with and without a total', async () => {
    const sizes = async (options: { limit?: number; all?: boolean }, total: boolean) => {
      const s = server(250, (size) => (total ? { per_page: size, total: 250 } : {}))
      return (await collect(pages(s.fetchPage, { perPage: 100, ...options }))).map((p) => p.length)
    }
    for (const total of [true, false]) {
      expect(await sizes({ all: true }, total)).toEqual([100, 100, 50])
      expect(await sizes({ limit: 230 }, total)).toEqual([100, 100, 30])
      expect(await sizes({ limit: 100 }, total)).toEqual([100])
      expect(await sizes({}, total)).toEqual([100])
    }
  })

  it('--page N --all walks on from N with the size of the first page', async () => {
    const s = server(65, () => ({}))
    expect(await collect(paginate(s.fetchPage, { all: true, page: 2 }))).toEqual(
      Array.from({ length: 45 }, (_, i) => 20 + i),
    )
    expect(s.requested.map((r) => r.page)).toEqual([2, 3, 4])
  })

  it('refuses a server that answers every page with the first', async () => {
    const fetchPage = async () => ({ data: [1, 2], meta: {} })
    const error = await failure(collect(paginate(fetchPage, { all: true, perPage: 2 })))
    expect(error.code).toBe('unexpected_response')
    expect(error.message).toMatch(/^page 2 of the list is the same as page 1/)
  })

  it('refuses it when it numbers every page 1, and from --page N on', async () => {
    const fetchPage = async () => ({ data: [1, 2], meta: { current_page: 1 } })
    const error = await failure(collect(paginate(fetchPage, { all: true, perPage: 2 })))
    expect(error.message).toMatch(/^page 2 of the list is the same as page 1/)
    const fromThree = async () => ({ data: [5, 6], meta: {} })
    const later = await failure(collect(paginate(fromThree, { all: true, page: 3, perPage: 2 })))
    expect(later.message).toMatch(/^page 4 of the list is the same as page 3/)
  })

  it('walks id-less records that repeat page 1 when the server numbers its pages', async () => {
    // Five pages of two identical records, then one: no total, only current_page echoed.
    const requested: number[] = []
    const fetchPage = async ({ page }: PageRequest) => {
      requested.push(page)
      return { data: page < 6 ? [{}, {}] : [{}], meta: { current_page: page } }
    }
    expect(await collect(paginate(fetchPage, { all: true, perPage: 2 }))).toHaveLength(11)
    expect(requested).toEqual([1, 2, 3, 4, 5, 6])
  })

  it('walks pages that repeat each other but not page 1, whatever the meta', async () => {
    const pages: Record<number, unknown[]> = {
      1: ['a', 'b'],
      2: ['x', 'x'],
      3: ['x', 'x'],
      4: ['y'],
    }
    const fetchPage = async ({ page }: PageRequest) => ({ data: pages[page] ?? [], meta: {} })
    expect(await collect(paginate(fetchPage, { all: true, perPage: 2 }))).toEqual([
      'a',
      'b',
      'x',
      'x',
      'x',
      'x',
      'y',
    ])
  })
})
