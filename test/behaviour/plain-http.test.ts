// Credentials and tokens go only over HTTPS or to a loopback address. Anything else is refused
// with exit 2 before a byte is sent, naming --insecure-http, which (or CHAMBERCTL_INSECURE_HTTP=1)
// lets them through with a warning. 0.0.0.0 stands in for another host: it is no loopback
// address, yet on this machine a connection to it reaches the test's loopback listener, so the
// tests can see what would have been sent.
import { describe, expect, it } from 'vitest'
import { isLoopback } from '../../src/api/plain-http.js'
import { useBareCommands } from '../helpers/run-main.js'
import type { RunOptions } from '../helpers/run-main.js'
import { startFakeApi, useFakeApi } from '../helpers/fake-api.js'

const SECRET = 'remote-secret'
const TOKEN_ANSWER = { access_token: 'remote-token', token_type: 'Bearer', expires_in: 3600 }
const LIST = {
  data: [{ id: 'ch_1', name: 'One' }],
  meta: { current_page: 1, per_page: 20, total: 1 },
}
const listener = useFakeApi({ token: TOKEN_ANSWER, answer: () => ({ body: LIST }) })
const { runBare } = useBareCommands()
const run = (args: string[], env: NodeJS.ProcessEnv = {}, options: RunOptions = {}) =>
  runBare(args, { ...options, env })

// The listener's base URL under another host name.
const remote = () => listener().baseUrl().replace('127.0.0.1', '0.0.0.0')

const envClient = () => ({
  CHAMBERCTL_BASE_URL: remote(),
  CHAMBERCTL_CLIENT_ID: 'ci',
  CHAMBERCTL_CLIENT_SECRET: SECRET,
})
const envToken = () => ({ CHAMBERCTL_BASE_URL: remote(), CHAMBERCTL_TOKEN: 'env-token' })
const login = () => ['login', '--base-url', remote(), '--client-id', 'ci', '--client-secret-stdin']

const REFUSAL =
  /^error: refusing to send credentials over plain HTTP to 0\.0\.0\.0:\d+: use an https:\/\/ base URL, or --insecure-http \(CHAMBERCTL_INSECURE_HTTP=1\) if you really mean it$/m

describe('plain HTTP to another host is refused before sending', () => {
  const cases: [string, () => [string[], NodeJS.ProcessEnv, RunOptions?]][] = [
    ['login', () => [login(), {}, { stdin: SECRET }]],
    ['env client credentials', () => [['chambers', 'list'], envClient()]],
    ['CHAMBERCTL_TOKEN', () => [['chambers', 'list'], envToken()]],
    ['api', () => [['api', '/chambers'], envToken()]],
    ['auth token', () => [['auth', 'token'], envClient()]],
    ['auth status', () => [['auth', 'status'], envClient()]],
  ]
  for (const [name, make] of cases) {
    it(`${name}: exit 2 naming --insecure-http, nothing sent`, async () => {
      const [args, env, options] = make()
      const { code, stderr } = await run(args, env, options)
      expect(code, stderr).toBe(2)
      expect(stderr).toMatch(REFUSAL)
      expect(listener().requests).toEqual([])
    })
  }

  it("a profile's secret and token: refused once the flag is gone", async () => {
    const first = await run([...login(), '--insecure-http'], {}, { stdin: SECRET })
    expect(first.code, first.stderr).toBe(0)
    listener().requests.splice(0)
    const { code, stderr } = await run(['chambers', 'list'])
    expect(code).toBe(2)
    expect(stderr).toMatch(REFUSAL)
    expect(listener().requests).toEqual([])
  })
})

describe('--insecure-http and CHAMBERCTL_INSECURE_HTTP=1 let them through, with a warning', () => {
  it.each([
    ['the flag', ['--insecure-http'], {}],
    ['the environment', [], { CHAMBERCTL_INSECURE_HTTP: '1' }],
  ])('%s', async (_, flags, env) => {
    const { code, stdout, stderr } = await run(['chambers', 'list', ...flags], {
      ...envClient(),
      ...env,
    })
    expect(code, stderr).toBe(0)
    expect(stdout).toContain('ch_1')
    expect(stderr).toMatch(
      /^warning: credentials go over plain HTTP to 0\.0\.0\.0:\d+ \(--insecure-http\)$/m,
    )
    expect(listener().requests.map((r) => r.path)).toEqual([
      '/v2/auth/token',
      '/v2/chambers?page=1',
    ])
    expect(listener().requests[0]!.body).toContain(SECRET)
  })
})

describe('loopback needs no flag', () => {
  it.each(['127.0.0.1', 'localhost'])('%s', async (host) => {
    const base = listener().baseUrl().replace('127.0.0.1', host)
    const { code, stderr } = await run(['chambers', 'list'], {
      ...envClient(),
      CHAMBERCTL_BASE_URL: base,
    })
    expect(code, stderr).toBe(0)
    expect(stderr).not.toContain('warning')
  })

  it('tells loopback addresses from others', () => {
    for (const host of [
      'localhost',
      'api.localhost',
      '127.0.0.1',
      '127.8.9.10',
      '[::1]',
      '[::ffff:7f00:1]',
    ]) {
      expect(isLoopback(host), host).toBe(true)
    }
    for (const host of [
      '0.0.0.0',
      '10.0.0.1',
      'example.com',
      'localhost.example.com',
      '[::]',
      '[::ffff:a00:1]',
      '128.0.0.1',
    ]) {
      expect(isLoopback(host), host).toBe(false)
    }
  })
})

describe('redirects', () => {
  it('are not followed: the token never reaches the other host', async () => {
    const other = await startFakeApi({ answer: () => ({ body: LIST }) })
    const target = other.baseUrl().replace('127.0.0.1', 'localhost')
    const redirecting = await startFakeApi({
      answer: () => ({ status: 307, body: {}, headers: { location: `${target}/chambers` } }),
    })
    try {
      const { code, stderr } = await run(['chambers', 'list'], {
        CHAMBERCTL_BASE_URL: redirecting.baseUrl(),
        CHAMBERCTL_TOKEN: 'env-token',
      })
      expect(code).toBe(1)
      expect(stderr).toMatch(/HTTP 307/)
      expect(redirecting.requests).toHaveLength(1)
      expect(other.requests).toEqual([])
    } finally {
      await redirecting.close()
      await other.close()
    }
  })
})
