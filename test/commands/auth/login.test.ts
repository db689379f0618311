// `login` against a real sandbox, with flags and the secret on stdin as a script runs it, and
// through prompts on a (pretend) TTY; where the profile lives on disk and with which modes.
import { chmodSync, existsSync } from 'node:fs'
import path from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it } from 'vitest'
import { closedPortUrl } from '../../helpers/fake-api.js'
import {
  configFile,
  modeOf,
  readProfile,
  readProfiles,
  tokenFile,
  tokenOf,
} from '../../helpers/config-files.js'
import { startSession } from '../../helpers/run-main.js'
import { until, lines } from '../../helpers/output.js'
import { finishes } from '../../helpers/session.js'
import { POSIX, tokenWorks, useAuthSandbox } from './helpers.js'

const { sandbox, configDir, run, runBare, login, secret, clientId } = useAuthSandbox()

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
      // This login's own id: its tokens carry it, with the client id.
      login: expect.stringMatching(/^[0-9a-f-]{36}$/) as string,
      tokens: {
        [sandbox().v2]: {
          access_token: expect.stringMatching(/^sbx_v2_/) as string,
          expires_at: expect.any(Number) as number,
          client_id: clientId(),
          login: profile.login,
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
  async function answerFromBaseUrl(session: ReturnType<typeof startSession>) {
    session.stdin.write(`${sandbox().v2}\n`)
    await until(session.stderr, /Client id/)
    session.stdin.write(`${clientId()}\n`)
    await until(session.stderr, /Client secret/)
    session.stdin.write(`${secret()}\n`)
    return session.done
  }

  it('prompts for base URL, client id and a masked secret on a TTY', async () => {
    const session = startSession(['login'], { ...tty, env: { CHAMBERCTL_CONFIG_DIR: configDir() } })
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
    const session = startSession(['login'], { ...tty, env: { CHAMBERCTL_CONFIG_DIR: configDir() } })
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

  it('says a refused port before asking for the secret', async () => {
    const session = startSession(['login', '--base-url', await closedPortUrl()], {
      ...tty,
      env: { CHAMBERCTL_CONFIG_DIR: configDir(), CHAMBERCTL_CLIENT_ID: clientId() },
    })
    const [shown] = await until(session.stderr, /Client secret|error:/)
    // Answered, so that an old login that asked goes on to fail.
    if (shown !== 'error:') session.stdin.write('typed in vain\n')
    const { code, stderr } = await session.done
    expect(shown).toBe('error:')
    expect(code).toBe(5)
    expect(stripVTControlCharacters(stderr)).toMatch(
      /^error: cannot reach 127\.0\.0\.1:\d+: .*ECONNREFUSED/m,
    )
    expect(existsSync(configFile(configDir())) ? readProfiles(configDir()) : {}).toEqual({})
  })

  it('asks only for what flags and environment leave missing', async () => {
    const session = startSession(['login', '--base-url', sandbox().v2], {
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
    const session = startSession(args, {
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

  // stdin is read once: with the secret on it, a prompt after its end of input closed at once.
  it('with --client-secret-stdin asks nothing: exit 2 naming what is missing, stdin unread', async () => {
    const session = startSession(['login', '--client-secret-stdin'], {
      ...tty,
      env: { CHAMBERCTL_CONFIG_DIR: configDir(), NO_COLOR: '1' },
    })
    const { code, stdout, stderr } = await finishes(session)
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(lines(stderr)).toEqual([
      'error: missing --base-url, --client-id (not prompting: stdin holds the secret)',
    ])
    expect(session.stdin.readableFlowing).not.toBe(true)
  })

  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)(
    'a %s at the secret prompt ends login with exit %i, nothing sent',
    async (signal, code) => {
      sandbox().reset()
      const session = startSession(
        ['login', '--base-url', sandbox().v2, '--client-id', clientId()],
        {
          ...tty,
          env: { CHAMBERCTL_CONFIG_DIR: configDir(), NO_COLOR: '1' },
        },
      )
      await until(session.stderr, /Client secret/)
      session.interrupt(signal)
      const result = await finishes(session)
      expect(result.code).toBe(code)
      expect(lines(stripVTControlCharacters(result.stderr)).at(-1)).toBe(
        `error: ${signal} while a prompt waited`,
      )
      expect(sandbox().requests).toEqual([])
      expect(existsSync(configFile(configDir()))).toBe(false)
    },
  )

  it('does not prompt when stdin is not a TTY', async () => {
    const { code, stderr } = await runBare(['login'], { stdoutIsTTY: true, stdinIsTTY: false })
    expect(code).toBe(2)
    expect(stderr).toMatch(/missing --base-url/)
  })
})
