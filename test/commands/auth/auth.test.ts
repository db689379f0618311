// login, logout, auth status and auth token against a real sandbox; interactive login through
// prompts on a (pretend) TTY; where a profile lives on disk and with which modes.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  configFile,
  lines,
  loginArgs,
  modeOf,
  patchProfile,
  patchToken,
  readProfile,
  readProfiles,
  startMain,
  tokenFile,
  tokenOf,
  until,
  useCommands,
  useSandbox,
} from '../../helpers/cli.js'
import type { SandboxFixture } from '../../helpers/cli.js'

const POSIX = process.platform !== 'win32'
const sandbox = useSandbox()
const { configDir, run, runBare } = useCommands(sandbox)

const secret = () => sandbox().sandbox.credentials.clientSecret
const clientId = () => sandbox().sandbox.credentials.clientId

// `login` with flags and the secret on stdin, as a script would do it.
async function login(
  fixture: SandboxFixture,
  options: { dir?: string; baseUrl?: string; extra?: string[]; stdin?: string } = {},
) {
  return runBare([...loginArgs(fixture, options.baseUrl), ...(options.extra ?? [])], {
    stdin: options.stdin ?? `${fixture.sandbox.credentials.clientSecret}\n`,
    env: options.dir ? { CHAMBERCTL_CONFIG_DIR: options.dir } : {},
  })
}

async function tokenWorks(fixture: SandboxFixture, token: string): Promise<number> {
  const response = await fetch(`${fixture.v2}/chambers`, {
    headers: { authorization: `Bearer ${token}` },
  })
  await response.arrayBuffer()
  return response.status
}

describe('login', () => {
  it('stores the profile in config.json (0600) in a new config directory (0700)', async () => {
    const dir = path.join(configDir(), 'nested', 'chamberctl')
    const { code, stdout, stderr } = await login(sandbox(), { dir })
    expect(code, stderr).toBe(0)
    expect(stdout).toBe('')
    const profile = readProfile(dir)
    expect(profile).toEqual({
      base_url: sandbox().v2,
      client_id: clientId(),
      client_secret: secret(),
      tokens: {
        [sandbox().v2]: {
          access_token: expect.stringMatching(/^sbx_v2_/) as string,
          expires_at: expect.any(Number) as number,
        },
      },
    })
    // The token is in the profile's own cache file, not in config.json.
    expect(readProfiles(dir).default).not.toHaveProperty('tokens')
    expect(tokenOf(profile)!.expires_at! - Date.now()).toBeGreaterThan(3_500_000)
    expect(await tokenWorks(sandbox(), tokenOf(profile)!.access_token)).toBe(200)
    if (POSIX) {
      expect(modeOf(dir)).toBe(0o700)
      expect(modeOf(configFile(dir))).toBe(0o600)
      expect(modeOf(tokenFile(dir))).toBe(0o600)
    }
  })

  it('says who, where, which API version and until when on stderr', async () => {
    const { stderr } = await login(sandbox())
    expect(stderr).toContain(sandbox().v2)
    expect(stderr).toContain(clientId())
    expect(stderr).toMatch(/API version:\s+v2/)
    expect(stderr).toMatch(/expires: \d{4}-\d\d-\d\dT.*\(in 60 min\)/)
    expect(stderr).not.toContain(secret())
  })

  it('tightens an existing config directory that others can read', async () => {
    if (!POSIX) return
    const dir = configDir()
    chmodSync(dir, 0o755)
    expect((await login(sandbox())).code).toBe(0)
    expect(modeOf(dir)).toBe(0o700)
  })

  it('keeps only the token with --no-store-secret', async () => {
    const { code, stderr } = await login(sandbox(), { extra: ['--no-store-secret'] })
    expect(code).toBe(0)
    expect(stderr).toMatch(/not stored/)
    const profile = readProfile(configDir())
    expect(profile.client_secret).toBeUndefined()
    expect(tokenOf(profile)!.access_token).toMatch(/^sbx_v2_/)
    // The token alone is enough until it expires.
    const list = await runBare(['chambers', 'list'])
    expect(list.code, list.stderr).toBe(0)
  })

  it('saves under --profile and leaves the default profile alone', async () => {
    expect((await login(sandbox(), { extra: ['--profile', 'staging'] })).code).toBe(0)
    expect(Object.keys(readProfiles(configDir()))).toEqual(['staging'])
    expect((await runBare(['chambers', 'list'])).code).toBe(4)
    expect((await runBare(['chambers', 'list', '--profile', 'staging'])).code).toBe(0)
    const env = await runBare(['chambers', 'list'], { env: { CHAMBERCTL_PROFILE: 'staging' } })
    expect(env.code).toBe(0)
  })

  it('exits 4 with invalid_client and stores nothing for a wrong secret', async () => {
    const { code, stderr } = await login(sandbox(), { stdin: 'wrong-secret\n' })
    expect(code).toBe(4)
    expect(stderr).toMatch(/^error: .*client authentication failed/)
    expect(existsSync(configFile(configDir())) ? readProfiles(configDir()) : {}).toEqual({})
  })

  it('exits 2 when --client-secret-stdin gets an empty stdin', async () => {
    const { code, stderr } = await login(sandbox(), { stdin: '' })
    expect(code).toBe(2)
    expect(stderr).toMatch(/^error: --client-secret-stdin: stdin was empty/)
  })

  it('exits 5 for a server that cannot be reached, storing nothing', async () => {
    const { code } = await login(sandbox(), { baseUrl: 'http://127.0.0.1:1/v2' })
    expect(code).toBe(5)
    expect(existsSync(configFile(configDir())) ? readProfiles(configDir()) : {}).toEqual({})
  })

  it('takes the client credentials from the environment', async () => {
    const { code } = await run(['login', '--base-url', sandbox().v1])
    expect(code).toBe(0)
    expect(readProfile(configDir())).toMatchObject({
      base_url: sandbox().v1,
      client_id: clientId(),
    })
  })
})

describe('interactive login', () => {
  const tty = { stdinIsTTY: true, stdoutIsTTY: true, stderrIsTTY: true }

  // Types the sandbox's base URL at the prompt waiting for it, then the client id and secret.
  async function answerFromBaseUrl(session: ReturnType<typeof startMain>) {
    session.stdin.write(`${sandbox().v2}\n`)
    await until(session.stderr, /Client id/)
    session.stdin.write(`${clientId()}\n`)
    await until(session.stderr, /Client secret/)
    session.stdin.write(`${secret()}\n`)
    return session.done
  }

  it('prompts for base URL, client id and a masked secret on a TTY', async () => {
    const session = startMain(['login'], { ...tty, env: { CHAMBERCTL_CONFIG_DIR: configDir() } })
    await until(session.stderr, /Base URL/)
    const { code, stderr } = await answerFromBaseUrl(session)
    expect(code, stderr).toBe(0)
    expect(readProfile(configDir())).toMatchObject({
      base_url: sandbox().v2,
      client_id: clientId(),
      client_secret: secret(),
    })
    expect(stderr).toMatch(/Logged in to/)
    expect(stderr).toContain('*'.repeat(secret().length))
    expect(stderr).not.toContain(secret())
  })

  it('asks again for a plain-HTTP base URL of another host, before the secret', async () => {
    const session = startMain(['login'], { ...tty, env: { CHAMBERCTL_CONFIG_DIR: configDir() } })
    await until(session.stderr, /Base URL/)
    session.stdin.write('http://directory.example.org/v2\n')
    await until(
      session.stderr,
      /plain HTTP to directory\.example\.org: use https:\/\/, or --insecure-http/,
    )
    expect(session.stderr()).not.toMatch(/Client id/)
    session.stdin.write('\u0015') // Ctrl-U: clear the line
    const { code, stderr } = await answerFromBaseUrl(session)
    expect(code, stderr).toBe(0)
    expect(readProfile(configDir())).toMatchObject({ base_url: sandbox().v2 })
  })

  it('asks only for what flags and environment leave missing', async () => {
    const session = startMain(['login', '--base-url', sandbox().v2], {
      ...tty,
      env: { CHAMBERCTL_CONFIG_DIR: configDir(), CHAMBERCTL_CLIENT_ID: clientId() },
    })
    await until(session.stderr, /Client secret/)
    expect(session.stderr()).not.toMatch(/Base URL|Client id/)
    session.stdin.write(`${secret()}\n`)
    const { code, stderr } = await session.done
    expect(code).toBe(0)
    expect(stderr).toMatch(/Logged in to .* as client sandbox-client/)
  })

  it.each([
    ['--no-input', ['login', '--no-input'], {}],
    ['CI=true', ['login'], { CI: 'true' }],
  ])('with %s exits 2 naming the missing flags, without reading stdin', async (_, args, env) => {
    // stdin stays open and empty: a prompt or a read would wait forever.
    const session = startMain(args, {
      ...tty,
      env: { CHAMBERCTL_CONFIG_DIR: configDir(), NO_COLOR: '1', ...env },
    })
    const guard = new Promise<never>((_resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('login waited on stdin')), 5_000)
      void session.done.finally(() => clearTimeout(timer))
    })
    const { code, stdout, stderr } = await Promise.race([session.done, guard])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(lines(stderr)).toEqual([
      'error: missing --base-url, --client-id, --client-secret-stdin (cannot prompt here)',
    ])
    expect(session.stdin.readableFlowing).not.toBe(true)
  })

  it('does not prompt when stdin is not a TTY', async () => {
    const { code, stderr } = await runBare(['login'], { stdoutIsTTY: true, stdinIsTTY: false })
    expect(code).toBe(2)
    expect(stderr).toMatch(/missing --base-url/)
  })
})

describe('auth status', () => {
  // Two profiles: `default` (v2, secret in the config file) and `old` (v1, token only).
  async function twoProfiles() {
    await login(sandbox())
    await login(sandbox(), {
      baseUrl: sandbox().v1,
      extra: ['--profile', 'old', '--no-store-secret'],
    })
  }

  it('shows a block of lines per profile, the active one marked, and what it checked', async () => {
    await twoProfiles()
    const { code, stdout, stderr } = await runBare(['auth', 'status', '-o', 'table'])
    expect(code, stderr).toBe(0)
    const expiry = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(in 60 min\)/.source
    expect(stdout).toMatch(
      new RegExp(
        [
          'default \\(active\\)',
          `  Base URL:    ${sandbox().v2}`,
          '  API version: v2',
          `  Client id:   ${clientId()}`,
          '  Secret:      in the config file \\(mode 0600\\)',
          `  Token:       valid until ${expiry}`,
          '',
          'old',
          `  Base URL:    ${sandbox().v1}`,
          '  API version: v1',
          `  Client id:   ${clientId()}`,
          '  Secret:      not stored',
          `  Token:       valid until ${expiry}`,
          '',
        ].join('\n') + '$',
      ),
    )
    expect(stderr).toBe(`Checked profile default at ${sandbox().v2}: can authenticate\n`)
  })

  it('prints one object per profile with --json, and the same keys as TSV in a pipe', async () => {
    await twoProfiles()
    patchToken(configDir(), { expires_at: Date.now() - 1 }, 'old')
    const { code, stdout } = await runBare(['auth', 'status', '--json'])
    expect(code).toBe(0)
    const expiresAt = tokenOf(readProfile(configDir()))!.expires_at!
    const records = JSON.parse(stdout) as Record<string, unknown>[]
    expect(records).toEqual([
      {
        profile: 'default',
        active: true,
        base_url: sandbox().v2,
        api_version: 'v2',
        client_id: clientId(),
        secret_storage: 'config_file',
        token_valid: true,
        expires_at: new Date(expiresAt).toISOString(),
      },
      expect.objectContaining({
        profile: 'old',
        active: false,
        secret_storage: 'none',
        token_valid: false,
      }),
    ])
    expect(stdout).not.toContain(secret())
    expect(stdout).not.toContain(tokenOf(readProfile(configDir()))!.access_token)
    const tsv = await runBare(['auth', 'status'])
    expect(lines(tsv.stdout).map((line) => line.split('\t'))).toEqual(
      records.map((record) => Object.values(record).map(String)),
    )
  })

  it('says null for a token that never expires or is not there', async () => {
    await login(sandbox())
    patchToken(configDir(), { expires_at: undefined })
    const { stdout } = await runBare(['auth', 'status', '--json'])
    expect(JSON.parse(stdout)).toEqual([
      expect.objectContaining({ token_valid: true, expires_at: null }),
    ])
    await runBare(['logout'])
    const after = await runBare(['auth', 'status', '--json'])
    expect(after.code).toBe(4)
    expect(JSON.parse(after.stdout)).toEqual([
      expect.objectContaining({ secret_storage: 'none', token_valid: false, expires_at: null }),
    ])
  })

  it('never prints the password of a base URL', async () => {
    await login(sandbox())
    const withPassword = sandbox().v2.replace('http://', 'http://ada:hunter2@')
    patchProfile(configDir(), { base_url: withPassword })
    for (const format of ['table', 'json', 'tsv']) {
      const { stdout, stderr } = await runBare(['auth', 'status', '-o', format])
      expect(stdout + stderr).not.toMatch(/hunter2|ada:/)
      expect(stdout).toContain(sandbox().v2)
    }
  })

  it('says when it checked the environment, and marks no profile active', async () => {
    await login(sandbox())
    const { code, stdout, stderr } = await run(['auth', 'status', '-o', 'table'])
    expect(code, stderr).toBe(0)
    expect(stdout).toMatch(/^default\n/)
    expect(stdout).toMatch(
      /\nenvironment \(active\)\n {2}Base URL: +\S+\n {2}API version: +v2\n {2}Credentials: +CHAMBERCTL_CLIENT_ID, CHAMBERCTL_CLIENT_SECRET\n$/,
    )
    expect(stderr).toBe(
      "Checked the environment's credentials (CHAMBERCTL_CLIENT_ID, CHAMBERCTL_CLIENT_SECRET) " +
        `at ${sandbox().v2}: can authenticate\n`,
    )
    const json = await run(['auth', 'status', '--json'])
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ active: false })])
  })

  it('says when it checked the sandbox', async () => {
    const { code, stdout, stderr } = await runBare(['auth', 'status', '--sandbox', '-o', 'table'])
    expect(code, stderr).toBe(0)
    expect(stdout).toBe('sandbox (active)\n  Credentials: its own; no login needed\n')
    expect(stderr).toBe('Checked the sandbox (API v2): can authenticate\n')
  })

  it('names the environment token that a profile is used with when it fails', async () => {
    await login(sandbox())
    const { code, stderr } = await runBare(['auth', 'status'], {
      env: { CHAMBERCTL_TOKEN: 'revoked' },
    })
    expect(code).toBe(4)
    expect(stderr).toMatch(/^error: profile default with CHAMBERCTL_TOKEN cannot authenticate: /)
  })

  it('exits 4 when there is no profile at all', async () => {
    const { code, stdout, stderr } = await runBare(['auth', 'status'])
    expect(code).toBe(4)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/^error: profile default cannot authenticate: not logged in/)
  })

  it('exits 4 when the profile holds a wrong secret and an expired token', async () => {
    await login(sandbox())
    patchProfile(configDir(), { client_secret: 'revoked' })
    patchToken(configDir(), { expires_at: Date.now() - 1 })
    const { code, stdout, stderr } = await runBare(['auth', 'status', '-o', 'table'])
    expect(code).toBe(4)
    expect(stdout).toMatch(/^default \(active\)\n/)
    expect(stdout).toMatch(/ {2}Token: +expired at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/)
    expect(stderr).toMatch(/^error: profile default cannot authenticate: .*client authentication/)
  })

  it('exits 5 when the server of the active profile is down', async () => {
    await login(sandbox())
    patchProfile(configDir(), { base_url: 'http://127.0.0.1:1/v2' })
    const down = await runBare(['auth', 'status'])
    expect(down.code).toBe(5)
  })
})

describe('profiles that do not exist', () => {
  it.each([
    ['--profile', ['--profile', 'nope'], {}],
    ['CHAMBERCTL_PROFILE', [], { CHAMBERCTL_PROFILE: 'nope' }],
  ])('%s naming none is exit 2 naming those there are', async (_, extra, env) => {
    await login(sandbox())
    await login(sandbox(), { extra: ['--profile', 'staging'] })
    for (const args of [['chambers', 'list'], ['auth', 'status'], ['auth', 'token'], ['logout']]) {
      const { code, stdout, stderr } = await runBare([...args, ...extra], { env })
      expect(code, args.join(' ')).toBe(2)
      expect(stdout).toBe('')
      expect(lines(stderr)).toEqual([
        'error: no profile nope: the profiles are default, staging; ' +
          '`chamberctl login --profile nope` creates it',
      ])
    }
  })

  it('says there are none yet when there are none', async () => {
    const { code, stderr } = await runBare(['chambers', 'list', '--profile', 'nope'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/^error: no profile nope: there are no profiles yet; /)
  })

  it('login creates one', async () => {
    const { code } = await login(sandbox(), { extra: ['--profile', 'new'] })
    expect(code).toBe(0)
    expect((await runBare(['chambers', 'list', '--profile', 'new'])).code).toBe(0)
  })
})

describe('auth switch', () => {
  it('makes a profile the active one, kept in the config file', async () => {
    await login(sandbox())
    await login(sandbox(), { baseUrl: sandbox().v1, extra: ['--profile', 'old'] })
    const { code, stdout, stderr } = await runBare(['auth', 'switch', 'old'])
    expect(code, stderr).toBe(0)
    expect(stdout).toBe('')
    expect(stderr).toBe('Switched to profile old\n')
    if (POSIX) expect(modeOf(configFile(configDir()))).toBe(0o600)

    // Later commands use it: the v1 API answers without v2's fields.
    const status = await runBare(['auth', 'status', '--json'])
    expect(JSON.parse(status.stdout)).toEqual([
      expect.objectContaining({ profile: 'default', active: false }),
      expect.objectContaining({ profile: 'old', active: true, api_version: 'v1' }),
    ])
    expect(status.stderr).toBe(`Checked profile old at ${sandbox().v1}: can authenticate\n`)
    // A login without --profile logs in to the active profile again.
    await login(sandbox(), { baseUrl: sandbox().v1 })
    expect(readProfile(configDir(), 'old').client_secret).toBe(secret())
  })

  it('is overridden for one command by --profile and CHAMBERCTL_PROFILE', async () => {
    await login(sandbox())
    await login(sandbox(), { baseUrl: sandbox().v1, extra: ['--profile', 'old'] })
    await runBare(['auth', 'switch', 'old'])
    const activeOf = async (extra: string[], env = {}) => {
      const { stdout } = await runBare(['auth', 'status', '--json', ...extra], { env })
      return (JSON.parse(stdout) as { profile: string; active: boolean }[])
        .filter((record) => record.active)
        .map((record) => record.profile)
    }
    expect(await activeOf(['--profile', 'default'])).toEqual(['default'])
    expect(await activeOf([], { CHAMBERCTL_PROFILE: 'default' })).toEqual(['default'])
    expect(await activeOf([])).toEqual(['old'])
  })

  it('notes a CHAMBERCTL_PROFILE that overrides the switch', async () => {
    await login(sandbox())
    await login(sandbox(), { extra: ['--profile', 'old'] })
    const { code, stderr } = await runBare(['auth', 'switch', 'old'], {
      env: { CHAMBERCTL_PROFILE: 'default' },
    })
    expect(code).toBe(0)
    expect(lines(stderr)).toEqual([
      'Switched to profile old',
      'note: CHAMBERCTL_PROFILE=default is set, and overrides it where it is set',
    ])
  })

  it('exits 2 naming the profiles for one that does not exist, changing nothing', async () => {
    await login(sandbox())
    const before = readFileSync(configFile(configDir()), 'utf8')
    const { code, stderr } = await runBare(['auth', 'switch', 'nope'])
    expect(code).toBe(2)
    expect(lines(stderr)).toEqual([
      'error: no profile nope: the profiles are default; `chamberctl login --profile nope` creates it',
    ])
    expect(readFileSync(configFile(configDir()), 'utf8')).toBe(before)
  })

  it('exits 2 without a profile name', async () => {
    const { code, stderr } = await runBare(['auth', 'switch'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/missing required argument 'profile'/)
  })
})

describe('auth token', () => {
  it('prints a working token from environment credentials', async () => {
    const { code, stdout, stderr } = await run(['auth', 'token'])
    expect(code, stderr).toBe(0)
    expect(stdout).toMatch(/^sbx_v2_\S+\n$/)
    expect(await tokenWorks(sandbox(), stdout.trim())).toBe(200)
  })

  it("prints the profile's cached token while it is valid", async () => {
    await login(sandbox())
    sandbox().reset()
    const { stdout } = await runBare(['auth', 'token'])
    expect(stdout.trim()).toBe(tokenOf(readProfile(configDir()))!.access_token)
    expect(sandbox().requests).toEqual([])
  })

  it('refreshes an expired token, prints and caches the new one', async () => {
    await login(sandbox())
    const old = tokenOf(readProfile(configDir()))!.access_token
    patchToken(configDir(), { expires_at: Date.now() - 1_000 })
    const { code, stdout } = await runBare(['auth', 'token'])
    expect(code).toBe(0)
    const fresh = stdout.trim()
    expect(fresh).not.toBe(old)
    expect(await tokenWorks(sandbox(), fresh)).toBe(200)
    expect(tokenOf(readProfile(configDir()))!.access_token).toBe(fresh)
    expect(tokenOf(readProfile(configDir()))!.expires_at).toBeGreaterThan(Date.now())
  })

  it.each([
    ['{"profile": "default", "tokens": {', 'not valid JSON'],
    ['{"tokens": {"x": {"access_token": 1}}}', 'the token of x has no access_token string'],
  ])(
    'discards a token cache that cannot be read (%s) in one line, then caches a new token',
    async (text, reason) => {
      await login(sandbox())
      const file = tokenFile(configDir())
      writeFileSync(file, text)
      const { code, stdout, stderr } = await runBare(['auth', 'token'])
      expect(code, stderr).toBe(0)
      expect(await tokenWorks(sandbox(), stdout.trim())).toBe(200)
      expect(lines(stderr)).toEqual([
        `warning: the token cache of profile default could not be read (${reason}) and was discarded: ${file}`,
      ])
      expect(tokenOf(readProfile(configDir()))!.access_token).toBe(stdout.trim())
      // Once: the new cache reads.
      expect((await runBare(['auth', 'token'])).stderr).toBe('')
    },
  )

  it('discards an unreadable token cache without a word under -q', async () => {
    await login(sandbox())
    writeFileSync(tokenFile(configDir()), '[]')
    const { code, stderr } = await runBare(['chambers', 'list', '-q'])
    expect(code, stderr).toBe(0)
    expect(stderr).toBe('')
  })

  it('exits 4 without credentials', async () => {
    const { code, stdout } = await runBare(['auth', 'token'])
    expect(code).toBe(4)
    expect(stdout).toBe('')
  })
})

describe('logout', () => {
  it('removes the token and the secret, keeping where and as whom', async () => {
    await login(sandbox())
    const { code, stderr } = await runBare(['logout'])
    expect(code).toBe(0)
    expect(stderr).toMatch(/token and secret removed/)
    expect(readProfile(configDir())).toEqual({ base_url: sandbox().v2, client_id: clientId() })
    expect(existsSync(tokenFile(configDir()))).toBe(false)
    if (POSIX) expect(modeOf(configFile(configDir()))).toBe(0o600)
    expect((await runBare(['chambers', 'list'])).code).toBe(4)
    expect((await runBare(['auth', 'status'])).code).toBe(4)
  })

  it('says so when there is nothing to forget, and exits 0', async () => {
    mkdirSync(configDir(), { recursive: true })
    const { code, stderr } = await runBare(['logout'])
    expect(code).toBe(0)
    expect(stderr).toMatch(/holds no token or secret/)
  })
})
