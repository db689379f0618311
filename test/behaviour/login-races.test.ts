// A token belongs to the login that got it (contract §2): a refresh that completes after `logout`
// or after a new `login` of the profile is discarded, never stored, and a token of one login is
// never used under another. Each race is played out step by step: the server holds the token
// answer of the refresh until the other command has finished.
import { existsSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { patchToken, readProfile, tokenFile, tokenOf } from '../helpers/config-files.js'
import { runMain } from '../helpers/run-main.js'
import { useTempDirs } from '../helpers/sandbox.js'
import type { RunResult } from '../helpers/run-main.js'
import { startTokenServer } from '../helpers/fake-api.js'
import type { TokenServer } from '../helpers/fake-api.js'

const tempDir = useTempDirs('chamberctl-races-')
let server: TokenServer
let env: NodeJS.ProcessEnv
let dir: string

beforeEach(async () => {
  server = await startTokenServer()
  dir = tempDir()
  env = { CHAMBERCTL_CONFIG_DIR: dir }
})
afterEach(() => server.close())

const login = (client: string) =>
  runMain(
    [
      'login',
      '--base-url',
      server.baseUrl(),
      '--client-id',
      client,
      '--client-secret-stdin',
      '--insecure-storage',
    ],
    { env, stdin: `secret-of-${client}\n` },
  )

// A profile logged in as `client` whose token has expired: the next command refreshes it.
async function expiredLogin(client: string): Promise<void> {
  expect((await login(client)).code).toBe(0)
  patchToken(dir, { expires_at: Date.now() - 60_000 })
}

// `chambers list` of a profile logged in as `client`, its token expired, stopped at its refresh:
// the server holds the token answer until `finish` releases it and resolves with the outcome.
async function heldRefresh(client: string): Promise<{ finish(): Promise<RunResult> }> {
  await expiredLogin(client)
  server.hold(client)
  const list = runMain(['chambers', 'list', '--json'], { env })
  await server.whenHeld(1)
  server.hold()
  return {
    finish() {
      server.release()
      return list
    },
  }
}

describe('a refresh racing logout', () => {
  it('is discarded: nothing is stored, and nothing can authenticate afterwards', async () => {
    const list = await heldRefresh('first')
    const logout = await runMain(['logout'], { env })
    expect(logout.code, logout.stderr).toBe(0)
    // The command that refreshed finishes with its token, which it keeps to itself.
    expect((await list.finish()).code).toBe(0)

    expect(existsSync(tokenFile(dir))).toBe(false)
    const status = await runMain(['auth', 'status'], { env })
    expect(status.code).toBe(4)
    expect(status.stderr).not.toContain('can authenticate')
    expect((await runMain(['chambers', 'list'], { env })).code).toBe(4)
    expect(server.tokenRequests()).toEqual(['first', 'first'])
  })
})

describe('a refresh racing a new login', () => {
  it('of another client is discarded: the new login keeps its own token', async () => {
    const list = await heldRefresh('first')
    expect((await login('second')).code).toBe(0)
    expect((await list.finish()).code).toBe(0)

    const token = await runMain(['auth', 'token'], { env })
    expect(token.code, token.stderr).toBe(0)
    expect(token.stdout).toBe('tok-second-3\n')
    expect(readProfile(dir).client_id).toBe('second')
    expect(server.tokenRequests()).toEqual(['first', 'first', 'second'])
  })

  it('of the same client is discarded too: a login is a login of its own', async () => {
    const list = await heldRefresh('first')
    // Answered at once: only the refresh that started before it is held.
    expect((await login('first')).code).toBe(0)
    expect((await list.finish()).code).toBe(0)
    expect(tokenOf(readProfile(dir))?.access_token).toBe('tok-first-3')
  })
})

describe('the token cache', () => {
  it('refreshes an empty cached token instead of sending it', async () => {
    expect((await login('first')).code).toBe(0)
    patchToken(dir, { access_token: '' })
    const token = await runMain(['auth', 'token'], { env })
    expect(token.code, token.stderr).toBe(0)
    expect(token.stdout).toBe('tok-first-2\n')
    expect(tokenOf(readProfile(dir))?.access_token).toBe('tok-first-2')
  })

  it('ignores a token that another login of the profile cached', async () => {
    expect((await login('first')).code).toBe(0)
    patchToken(dir, { login: 'an earlier login' } as object)
    const token = await runMain(['auth', 'token'], { env })
    expect(token.stdout).toBe('tok-first-2\n')
  })
})
