// Where the base URL and credentials come from (flags > env > profile), which token goes where,
// token refresh on expiry and after a 401, and the redacted --debug trace. The fake API in front
// of the sandbox (forwarding everything) shows the headers that reach a server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeApi } from '../helpers/fake-api.js'
import { CHAMBER_IDS, loginArgs, useSandbox, withSandbox } from '../helpers/sandbox.js'
import { patchProfile, patchToken, readProfile, tokenOf } from '../helpers/config-files.js'
import { useCommands } from '../helpers/run-main.js'
import { lines, tsvColumn } from '../helpers/output.js'
import type { FakeApi } from '../helpers/fake-api.js'
import type { SandboxFixture } from '../helpers/sandbox.js'

const sandbox = useSandbox()
const { configDir, run, runBare, login: runLogin, loginWithStaleToken } = useCommands(sandbox)

const path = (url: string) => url.replace(/\?.*/, '')

// Two more ways to reach the same sandbox, each a different base URL that records its requests.
let viaEnv: FakeApi
let viaFlag: FakeApi
beforeAll(async () => {
  viaEnv = await startFakeApi({ upstream: sandbox().sandbox.url })
  viaFlag = await startFakeApi({ upstream: sandbox().sandbox.url })
})
afterAll(async () => {
  await viaEnv.close()
  await viaFlag.close()
})
function resetRecorders(): void {
  viaEnv.requests.splice(0)
  viaFlag.requests.splice(0)
  sandbox().reset()
}

async function login(fixture: SandboxFixture, baseUrl = fixture.v2) {
  const { code, stderr } = await runLogin(fixture, { baseUrl })
  expect(code, stderr).toBe(0)
  return readProfile(configDir())
}

const bearer = (token: string) => `Bearer ${token}`
const authorizations = (recorder: FakeApi) =>
  recorder.requests.map((r) => r.headers.authorization).filter(Boolean)

describe('precedence: flags > env > profile', () => {
  it('uses the profile base URL when neither flag nor env gives one', async () => {
    await login(sandbox())
    resetRecorders()
    const { code } = await runBare(['chambers', 'list'])
    expect(code).toBe(0)
    expect(sandbox().requests.map((r) => path(r.path))).toEqual(['/v2/chambers'])
    expect(viaEnv.requests).toEqual([])
  })

  it('CHAMBERCTL_BASE_URL beats the profile', async () => {
    await login(sandbox())
    resetRecorders()
    const { code, stderr } = await run(['chambers', 'list'], {
      env: { CHAMBERCTL_BASE_URL: viaEnv.baseUrl('v2') },
    })
    expect(code, stderr).toBe(0)
    expect(viaEnv.requests.map((r) => `${r.method} ${path(r.path)}`)).toEqual([
      'POST /v2/auth/token',
      'GET /v2/chambers',
    ])
    expect(viaFlag.requests).toEqual([])
  })

  it('--base-url beats CHAMBERCTL_BASE_URL and the profile', async () => {
    await login(sandbox())
    resetRecorders()
    const { code, stdout } = await run(['chambers', 'list', '--base-url', viaFlag.baseUrl('v2')], {
      env: { CHAMBERCTL_BASE_URL: viaEnv.baseUrl('v2') },
    })
    expect(code).toBe(0)
    expect(tsvColumn(stdout)).toEqual(CHAMBER_IDS)
    expect(viaFlag.requests.map((r) => path(r.path))).toEqual(['/v2/auth/token', '/v2/chambers'])
    expect(viaEnv.requests).toEqual([])
  })

  it('--base-url selects the API version: a v1 flag beats a v2 environment', async () => {
    const { code, stderr } = await run(['events', 'list', 'ch_0001', '--base-url', sandbox().v1])
    expect(code).toBe(2)
    expect(stderr).toMatch(/v1/)
  })

  it('env client credentials beat the profile secret', async () => {
    await login(sandbox())
    patchProfile(configDir(), { client_secret: 'stale' })
    patchToken(configDir(), { expires_at: 0 })
    // With the profile's (wrong) secret alone: invalid_client.
    expect((await runBare(['chambers', 'list'])).code).toBe(4)
    const { code } = await runBare(['chambers', 'list'], {
      env: {
        CHAMBERCTL_CLIENT_ID: sandbox().sandbox.credentials.clientId,
        CHAMBERCTL_CLIENT_SECRET: sandbox().sandbox.credentials.clientSecret,
      },
    })
    expect(code).toBe(0)
  })

  it('uses CHAMBERCTL_TOKEN as is, asking for no token of its own', async () => {
    const { stdout } = await run(['auth', 'token'])
    const token = stdout.trim()
    resetRecorders()
    const { code } = await runBare(['chambers', 'list'], {
      env: { CHAMBERCTL_BASE_URL: viaEnv.baseUrl('v2'), CHAMBERCTL_TOKEN: token },
    })
    expect(code).toBe(0)
    expect(viaEnv.requests.map((r) => `${r.method} ${path(r.path)}`)).toEqual(['GET /v2/chambers'])
    expect(authorizations(viaEnv)).toEqual([bearer(token)])
  })

  it("CHAMBERCTL_TOKEN beats the profile's cached token", async () => {
    const profile = await login(sandbox(), viaEnv.baseUrl('v2'))
    const { stdout } = await run(['auth', 'token'])
    const token = stdout.trim()
    expect(token).not.toBe(tokenOf(profile)!.access_token)
    resetRecorders()
    const { code } = await runBare(['chambers', 'list'], { env: { CHAMBERCTL_TOKEN: token } })
    expect(code).toBe(0)
    expect(authorizations(viaEnv)).toEqual([bearer(token)])
  })
  it("never replaces a rejected CHAMBERCTL_TOKEN with one from the profile's secret", async () => {
    await login(sandbox())
    sandbox().reset()
    const { code, stderr } = await runBare(['chambers', 'list'], {
      env: { CHAMBERCTL_TOKEN: 'sbx_v2_rejected' },
    })
    expect(code).toBe(4)
    expect(sandbox().requests.map((r) => `${r.method} ${r.status}`)).toEqual(['GET 401'])
    // The variable is the one refused, not the login.
    expect(stderr).toMatch(
      /^error: .*\(HTTP 401\); the token in CHAMBERCTL_TOKEN was refused: set a valid one, or unset it to use your login\n$/,
    )
    expect(stderr).not.toMatch(/run `chamberctl login`/)
  })
})

describe("a profile's token stays with its server", () => {
  it('is not sent to another --base-url: without credentials for it, exit 4 and no request', async () => {
    const profile = await login(sandbox())
    resetRecorders()
    const { code, stderr } = await runBare([
      'chambers',
      'list',
      '--base-url',
      viaFlag.baseUrl('v2'),
    ])
    expect(code).toBe(4)
    expect(lines(stderr)).toEqual([
      `error: profile default is logged in to ${new URL(sandbox().v2).origin}, and its credentials are never sent to another origin (${new URL(viaFlag.baseUrl('v2')).origin}): run \`chamberctl login --base-url ${viaFlag.baseUrl('v2')}\` (with another --profile to keep this one), or set CHAMBERCTL_TOKEN, or CHAMBERCTL_CLIENT_ID and CHAMBERCTL_CLIENT_SECRET`,
    ])
    expect(viaFlag.requests).toEqual([])
    expect(tokenOf(readProfile(configDir()))!.access_token).toBe(tokenOf(profile)!.access_token)
  })

  it('is not sent to another --base-url even with env credentials: those get their own', async () => {
    const profile = await login(sandbox())
    resetRecorders()
    const { code } = await run(['chambers', 'list', '--base-url', viaFlag.baseUrl('v2')])
    expect(code).toBe(0)
    expect(viaFlag.requests.map((r) => path(r.path))).toEqual(['/v2/auth/token', '/v2/chambers'])
    const sent = authorizations(viaFlag)
    expect(sent).toHaveLength(1)
    expect(sent).not.toContain(bearer(tokenOf(profile)!.access_token))
    // Nor is the other server's token cached in the profile.
    expect(readProfile(configDir())).toEqual(profile)
  })

  it('is not sent through CHAMBERCTL_BASE_URL to another server either', async () => {
    const profile = await login(sandbox())
    resetRecorders()
    const { code } = await runBare(['chambers', 'list'], {
      env: { CHAMBERCTL_BASE_URL: viaEnv.baseUrl('v2') },
    })
    expect(code).toBe(4)
    expect(JSON.stringify(viaEnv.requests)).not.toContain(tokenOf(profile)!.access_token)
  })

  it('is sent to its own server, once, with no token request', async () => {
    const profile = await login(sandbox(), viaEnv.baseUrl('v2'))
    resetRecorders()
    expect((await runBare(['members', 'list', 'ch_0001'])).code).toBe(0)
    expect(authorizations(viaEnv)).toEqual([bearer(tokenOf(profile)!.access_token)])
  })
})

describe("a profile's credentials serve every version on its origin", () => {
  it('logged in at /v2, works at /v1 with its own token, cached per base URL', async () => {
    const profile = await login(sandbox(), viaEnv.baseUrl('v2'))
    const v2Token = tokenOf(profile)!.access_token
    resetRecorders()
    const v1 = await runBare(['chambers', 'list', '--json'], {
      env: { CHAMBERCTL_BASE_URL: viaEnv.baseUrl('v1') },
    })
    expect(v1.code, v1.stderr).toBe(0)
    expect((JSON.parse(v1.stdout) as { id: string }[]).map((c) => c.id)).toEqual(CHAMBER_IDS)
    expect(viaEnv.requests.map((r) => `${r.method} ${path(r.path)}`)).toEqual([
      'POST /v1/auth/token',
      'GET /v1/chambers',
    ])
    const v1Token = authorizations(viaEnv)[0]!.replace(/^Bearer /, '')
    expect(v1Token).toMatch(/^sbx_v1_/)
    const cached = readProfile(configDir())
    expect(tokenOf(cached, viaEnv.baseUrl('v1'))!.access_token).toBe(v1Token)
    expect(tokenOf(cached)!.access_token).toBe(v2Token)

    // Each version now reuses its own cached token.
    resetRecorders()
    expect((await runBare(['members', 'list', 'ch_0001'])).code).toBe(0)
    const again = await runBare(['members', 'list', 'ch_0001', '--base-url', viaEnv.baseUrl('v1')])
    expect(again.code).toBe(0)
    expect(viaEnv.requests.map((r) => `${path(r.path)} ${r.headers.authorization}`)).toEqual([
      `/v2/chambers/ch_0001/members ${bearer(v2Token)}`,
      `/v1/chambers/ch_0001/members ${bearer(v1Token)}`,
    ])
  })

  it('a profile logged in at /v1 serves /v2 too (and a trailing slash is the same base URL)', async () => {
    await login(sandbox(), sandbox().v1)
    const { code, stdout, stderr } = await runBare([
      'events',
      'list',
      'ch_0001',
      '--limit',
      '1',
      '--base-url',
      `${sandbox().v2}/`,
    ])
    expect(code, stderr).toBe(0)
    expect(lines(stdout)).toHaveLength(1)
    expect(Object.keys(readProfile(configDir()).tokens!).sort()).toEqual(
      [sandbox().v1, sandbox().v2].sort(),
    )
  })
})

describe('token refresh', () => {
  it('obtains and caches a new token when the cached one has expired', async () => {
    const old = await login(sandbox())
    patchToken(configDir(), { expires_at: Date.now() - 60_000 })
    sandbox().reset()
    const { code } = await runBare(['chambers', 'list'])
    expect(code).toBe(0)
    expect(sandbox().requests.map((r) => `${r.method} ${path(r.path)} ${r.status}`)).toEqual([
      'POST /v2/auth/token 200',
      'GET /v2/chambers 200',
    ])
    const fresh = readProfile(configDir())
    expect(tokenOf(fresh)!.access_token).toMatch(/^sbx_v2_/)
    expect(tokenOf(fresh)!.access_token).not.toBe(tokenOf(old)!.access_token)
    expect(tokenOf(fresh)!.expires_at).toBeGreaterThan(Date.now())
  })

  it('refreshes once after a 401 for a token the server does not know, and retries', async () => {
    await loginWithStaleToken({ access_token: 'sbx_v2_revoked' })
    const { code, stdout } = await runBare(['chambers', 'get', 'ch_0003', '--json'])
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toMatchObject({ id: 'ch_0003' })
    expect(sandbox().requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'GET /v2/chambers/ch_0003 401',
      'POST /v2/auth/token 200',
      'GET /v2/chambers/ch_0003 200',
    ])
    expect(tokenOf(readProfile(configDir()))!.access_token).not.toBe('sbx_v2_revoked')
  })

  it('refreshes after the server expires a token the CLI still thinks valid', async () => {
    let now = Date.now()
    await withSandbox({ now: () => now, tokenTtlSeconds: 600 }, async (timed) => {
      await login(timed)
      now += 3_600_000
      timed.reset()
      const { code, stdout } = await runBare(['members', 'list', 'ch_0001', '--all'])
      expect(code).toBe(0)
      expect(lines(stdout)).toHaveLength(260)
      const statuses = timed.requests.map((r) => `${r.method} ${r.status}`)
      expect(statuses.slice(0, 3)).toEqual(['GET 401', 'POST 200', 'GET 200'])
      expect(statuses.filter((s) => s === 'POST 200')).toHaveLength(1)
    })
  })

  it('refreshes once only: a token rejected again exits 4', async () => {
    // The cached token is unknown to the server and the stored secret no longer valid.
    await loginWithStaleToken({ access_token: 'sbx_v2_revoked' }, 'revoked-too')
    const { code, stderr } = await runBare(['chambers', 'list'])
    expect(code).toBe(4)
    expect(stderr).toMatch(/^error: /)
    expect(sandbox().requests.map((r) => `${r.method} ${r.status}`)).toEqual([
      'GET 401',
      'POST 401',
    ])
  })
})

describe('--debug', () => {
  const SECRET = 'debug-Secret-9f3a7'

  it('traces method, URL, status and timing, never the secret or a token', async () => {
    await withSandbox({ clientSecret: SECRET }, async (own) => {
      const proxy = await startFakeApi({ upstream: own.sandbox.url })
      try {
        const { code, stdout, stderr } = await runBare(['chambers', 'list', '--debug'], {
          env: {
            CHAMBERCTL_BASE_URL: proxy.baseUrl('v2'),
            CHAMBERCTL_CLIENT_ID: own.sandbox.credentials.clientId,
            CHAMBERCTL_CLIENT_SECRET: SECRET,
          },
        })
        expect(code).toBe(0)
        expect(tsvColumn(stdout)).toEqual(CHAMBER_IDS)
        const base = proxy.baseUrl('v2').replace(/[./]/g, '\\$&')
        expect(stderr).toMatch(
          new RegExp(`^debug: POST ${base}\\/auth\\/token → 200 \\(\\d+ ms`, 'm'),
        )
        expect(stderr).toMatch(
          new RegExp(`^debug: GET ${base}\\/chambers\\S* → 200 \\(\\d+ ms`, 'm'),
        )
        expect(stderr).toContain('[redacted]')
        const token = proxy.requests[1]!.headers.authorization!.replace(/^Bearer /, '')
        expect(token).toMatch(/^sbx_v2_/)
        expect(stderr).not.toContain(token)
        expect(stderr).not.toContain(SECRET)
      } finally {
        await proxy.close()
      }
    })
  })

  it('never shows the profile token or secret, through login and later commands', async () => {
    await withSandbox({ clientSecret: SECRET }, async (own) => {
      const logged = await runBare([...loginArgs(own), '--debug'], { stdin: SECRET })
      expect(logged.code).toBe(0)
      const first = tokenOf(readProfile(configDir()))!.access_token
      patchToken(configDir(), { expires_at: 0 })
      const listed = await runBare(['members', 'list', 'ch_0001', '--limit', '150'], {
        env: { CHAMBERCTL_DEBUG: '1' },
      })
      expect(listed.code).toBe(0)
      const second = tokenOf(readProfile(configDir()))!.access_token
      expect(second).not.toBe(first)
      const trace = logged.stderr + listed.stderr
      expect(trace.match(/^debug: GET /gm)).toHaveLength(2)
      for (const hidden of [SECRET, first, second]) expect(trace).not.toContain(hidden)
    })
  })

  it('is silent without --debug', async () => {
    const { stderr } = await run(['chambers', 'list'])
    expect(stderr).not.toMatch(/debug:/)
  })
})
