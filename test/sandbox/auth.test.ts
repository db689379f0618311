import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiVersion } from '../../src/api/schemas.js'
import {
  BIG_CHAMBER,
  VERSIONS,
  basicAuth,
  credentialsBody,
  expectInvalidToken,
  openSandbox,
  withSandbox,
} from './helpers.js'
import type { ApiClient, ErrorBody, Reply, SendOptions, TestSandbox, TokenBody } from './helpers.js'

const TTL = 120
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

function requestToken(api: ApiClient, options: SendOptions): Promise<Reply<TokenBody & ErrorBody>> {
  return api.send('POST', '/auth/token', { token: null, ...options })
}

// A token must not only look right: it has to open the API of its version.
async function expectWorkingToken(api: ApiClient, reply: Reply<TokenBody>): Promise<void> {
  expect(reply.status).toBe(200)
  expect(reply.body).toEqual({
    access_token: expect.stringMatching(/^\S+$/),
    token_type: 'Bearer',
    expires_in: TTL,
  })
  expect(reply.headers.get('cache-control')).toBe('no-store')
  expect((await api.get('/chambers', {}, { token: reply.body.access_token })).status).toBe(200)
}

function expectInvalidClient(reply: Reply<ErrorBody>): void {
  expect(reply.status).toBe(401)
  expect(reply.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) })
}

describe.each(VERSIONS)('POST /%s/auth/token', (version) => {
  let env: TestSandbox
  let api: ApiClient
  beforeAll(async () => {
    env = await openSandbox({ tokenTtlSeconds: TTL })
    api = env.api(version)
  })
  afterAll(() => env.close())

  it('issues a token for credentials in a JSON body', async () => {
    await expectWorkingToken(api, await requestToken(api, { json: credentialsBody(env.sandbox) }))
  })

  it('issues a token for credentials in a form-urlencoded body', async () => {
    const body = String(new URLSearchParams(credentialsBody(env.sandbox)))
    await expectWorkingToken(api, await requestToken(api, { body, headers: FORM }))
  })

  it.each([
    ['a form body', 'grant_type=client_credentials', FORM],
    ['a JSON body', '{"grant_type":"client_credentials"}', { 'content-type': 'application/json' }],
  ])('issues a token for HTTP Basic credentials with grant_type in %s', async (_, body, type) => {
    const { clientId, clientSecret } = env.sandbox.credentials
    const headers = { ...type, authorization: basicAuth(clientId, clientSecret) }
    await expectWorkingToken(api, await requestToken(api, { body, headers }))
  })

  it('issues a different token on every request', async () => {
    const json = credentialsBody(env.sandbox)
    const [a, b] = await Promise.all([requestToken(api, { json }), requestToken(api, { json })])
    expect(a.body.access_token).not.toBe(b.body.access_token)
  })

  it.each([
    ['a wrong secret', { client_secret: 'nope' }],
    ['a wrong client id', { client_id: 'someone-else' }],
    ['no client secret', { client_secret: undefined }],
    ['no credentials at all', { client_id: undefined, client_secret: undefined }],
  ])('answers 401 invalid_client with a description for %s', async (_, change) => {
    const json = { ...credentialsBody(env.sandbox), ...change }
    expectInvalidClient(await requestToken(api, { json }))
  })

  it('answers 401 invalid_client for wrong HTTP Basic credentials', async () => {
    const headers = { ...FORM, authorization: basicAuth(env.sandbox.credentials.clientId, 'nope') }
    expectInvalidClient(await requestToken(api, { body: 'grant_type=client_credentials', headers }))
  })

  it('answers 400 unsupported_grant_type for another grant type', async () => {
    const json = { ...credentialsBody(env.sandbox), grant_type: 'password' }
    const reply = await requestToken(api, { json })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({
      error: 'unsupported_grant_type',
      error_description: expect.any(String),
    })
  })

  it('answers 400 invalid_request without a grant type', async () => {
    const json = { ...credentialsBody(env.sandbox), grant_type: undefined }
    const reply = await requestToken(api, { json })
    expect(reply.status).toBe(400)
    expect(reply.body.error).toBe('invalid_request')
  })

  it('answers 400 for a body that is not JSON', async () => {
    const headers = { 'content-type': 'application/json' }
    const reply = await requestToken(api, { body: '{"client_id":', headers })
    expect(reply.status).toBe(400)
    expect(reply.body.error).toBe('invalid_request')
  })

  it('answers 405 naming POST for a GET', async () => {
    const reply = await api.send('GET', '/auth/token', { token: null })
    expect(reply.status).toBe(405)
    expect(reply.headers.get('allow')).toBe('POST')
  })
})

describe('custom client credentials', () => {
  const custom = { clientId: 'ci client', clientSecret: 'p@ss:wörd+1' }

  it('are reported by the sandbox and are the only ones accepted', async () => {
    await withSandbox({ ...custom, tokenTtlSeconds: TTL }, async (env) => {
      const api = env.api('v2')
      expect(env.sandbox.credentials).toEqual(custom)
      const headers = { ...FORM, authorization: basicAuth(custom.clientId, custom.clientSecret) }
      const body = 'grant_type=client_credentials'
      await expectWorkingToken(api, await requestToken(api, { body, headers }))
      await expectWorkingToken(api, await requestToken(api, { json: credentialsBody(env.sandbox) }))
      const defaults = { client_id: 'sandbox-client', client_secret: 'sandbox-secret' }
      const json = { ...credentialsBody(env.sandbox), ...defaults }
      expectInvalidClient(await requestToken(api, { json }))
    })
  })
})

function protectedRoutes(version: ApiVersion): [string, string][] {
  const common: [string, string][] = [
    ['GET', '/chambers'],
    ['GET', `/chambers/${BIG_CHAMBER}`],
    ['GET', `/chambers/${BIG_CHAMBER}/members`],
  ]
  if (version === 'v1') return common
  return [
    ...common,
    ['GET', `/chambers/${BIG_CHAMBER}/events`],
    ['POST', '/chambers'],
    ['POST', `/chambers/${BIG_CHAMBER}/members`],
  ]
}

describe.each(VERSIONS)('bearer tokens on %s', (version) => {
  let env: TestSandbox
  let api: ApiClient
  beforeAll(async () => {
    env = await openSandbox()
    api = env.api(version)
  })
  afterAll(() => env.close())

  // A valid create body on POST, so that only the token can be what is wrong.
  const create = {
    name: 'Auth',
    type: 'hq',
    address: {},
    email: 'a@b.example',
    membership_type: 'x',
  }
  const body = (method: string) => (method === 'POST' ? create : undefined)

  it.each(protectedRoutes(version))('%s %s without a token answers 401', async (method, path) => {
    const reply = await api.send(method, path, { token: null, json: body(method) })
    expectInvalidToken(reply)
    expect(reply.headers.get('www-authenticate')).toBe('Bearer')
  })

  it.each(protectedRoutes(version))(
    '%s %s with an unknown token answers 401',
    async (method, path) => {
      const reply = await api.send(method, path, { token: 'sbx_made_up', json: body(method) })
      expectInvalidToken(reply)
      expect(reply.headers.get('www-authenticate')).toContain('error="invalid_token"')
    },
  )

  it('refuses a token of the other version', async () => {
    const other = env.api(version === 'v1' ? 'v2' : 'v1')
    const reply = await api.get('/chambers', {}, { token: await other.accessToken() })
    expectInvalidToken(reply, new RegExp(version))
  })

  it('refuses client credentials sent as HTTP Basic instead of a token', async () => {
    const { clientId, clientSecret } = env.sandbox.credentials
    const headers = { authorization: basicAuth(clientId, clientSecret) }
    expectInvalidToken(await api.get('/chambers', {}, { token: null, headers }))
  })

  it('refuses a token once its lifetime has passed, by the injected clock', async () => {
    await withSandbox({ tokenTtlSeconds: TTL }, async (timed) => {
      const client = timed.api(version)
      const token = await client.accessToken()
      timed.clock.advance(TTL * 1000 - 1)
      expect((await client.get('/chambers', {}, { token })).status).toBe(200)
      timed.clock.advance(1)
      expectInvalidToken(await client.get('/chambers', {}, { token }), /expired/)
      const fresh = await requestToken(client, { json: credentialsBody(timed.sandbox) })
      expect((await client.get('/chambers', {}, { token: fresh.body.access_token })).status).toBe(
        200,
      )
    })
  })
})
