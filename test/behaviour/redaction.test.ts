// Secrets never reach what chamberctl prints about a failure: error lines, JSON errors, excerpts
// of bodies, --debug traces and stack traces, bulk result rows. Masked by their keys
// (access_token, refresh_token, client_secret, password, Authorization) and by value: the client
// secret and every token of the run, wherever a server echoes them.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runMain } from '../helpers/run-main.js'
import { useTempDirs } from '../helpers/sandbox.js'
import { lines, ndjson } from '../helpers/output.js'
import type { RunOptions } from '../helpers/run-main.js'
import { startFakeApi } from '../helpers/fake-api.js'
import type { Answer, FakeApi } from '../helpers/fake-api.js'

const tempDir = useTempDirs('chamberctl-redact-')

const TOKEN = 'tok-3f9a1c77e2'
const REFRESH = 'refresh-81bd02'
const SECRET = 'cl-secret-5e1d'
const SECRETS = [TOKEN, REFRESH, SECRET, encodeURIComponent(`${SECRET}`)]

let listener: FakeApi | undefined
afterEach(async () => {
  await listener?.close()
  listener = undefined
})

// Answers every request, the token's too, with `answer`.
async function serve(answer: Answer) {
  listener = await startFakeApi({ token: false, answer })
}

// Issues TOKEN at /auth/token and gives every other request `answer`.
async function serveAfterToken(answer: Answer) {
  listener = await startFakeApi({
    token: { access_token: TOKEN, token_type: 'Bearer', expires_in: 3600 },
    answer,
  })
}

function run(args: string[], env: NodeJS.ProcessEnv, options: RunOptions = {}) {
  return runMain(args, {
    ...options,
    env: { CHAMBERCTL_CONFIG_DIR: tempDir(), CHAMBERCTL_BASE_URL: listener!.baseUrl(), ...env },
  })
}

const CLIENT = { CHAMBERCTL_CLIENT_ID: 'ci', CHAMBERCTL_CLIENT_SECRET: SECRET }

function expectNoSecret(text: string) {
  for (const secret of SECRETS) expect(text).not.toContain(secret)
}

describe('the token endpoint answers 200 with a body chamberctl cannot use', () => {
  // The body of the issue: no token_type, a negative expires_in, and the tokens in clear.
  const unusable = { access_token: TOKEN, refresh_token: REFRESH, expires_in: -5 }

  it.each([
    ['text', []],
    ['--json', ['--json']],
    ['--debug', ['--debug']],
  ])('%s: the error excerpt masks the tokens', async (_, flags) => {
    await serve(() => ({ status: 200, body: unusable }))
    const { code, stdout, stderr } = await run(['chambers', 'list', ...flags], CLIENT)
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/unexpected answer from the server \(HTTP 200\)/)
    expect(stderr).toContain('"access_token":"[redacted]"')
    expect(stderr).toContain('"refresh_token":"[redacted]"')
    expectNoSecret(stderr)
  })
})

describe('the token endpoint answers a token that is not a string', () => {
  // Unusable, so the answer is quoted in the error: the numbers are still secrets.
  const NUMERIC = 987654321012
  const REFRESH_NUMBER = 456789123

  it.each([
    ['text', []],
    ['--json', ['--json']],
    ['--debug', ['--debug']],
  ])('%s: never prints it', async (_, flags) => {
    await serve(() => ({
      status: 200,
      body: { access_token: NUMERIC, refresh_token: REFRESH_NUMBER, expires_in: 3600 },
    }))
    const { code, stdout, stderr } = await run(['chambers', 'list', ...flags], CLIENT)
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/unexpected answer from the server \(HTTP 200\): access_token/)
    expect(stderr).toContain('"access_token":"[redacted]"')
    expect(stderr).not.toContain(String(NUMERIC))
    expect(stderr).not.toContain(String(REFRESH_NUMBER))
    expectNoSecret(stderr)
  })
})

describe('a server that echoes secrets', () => {
  it('masks the bearer token echoed in an HTML error page (text, JSON and --debug)', async () => {
    await serve(() => ({
      status: 502,
      body: `<html>upstream refused Bearer ${TOKEN} for ${TOKEN}</html>`,
    }))
    const { code, stderr } = await run(['chambers', 'get', 'ch_1', '--json', '--debug'], {
      CHAMBERCTL_TOKEN: TOKEN,
    })
    expect(code).toBe(1)
    expect(stderr).toContain('HTTP 502')
    expect(stderr).toContain('debug: GET')
    expect(JSON.parse(lines(stderr).find((l) => l.startsWith('{"error"'))!)).toMatchObject({
      error: { status: 502 },
    })
    expectNoSecret(stderr)
  })

  it('masks the client secret echoed in an error description and in field messages', async () => {
    await serveAfterToken(() => ({
      status: 422,
      body: {
        error: `client ${SECRET} may not do this`,
        fields: { name: [`rejected for token ${TOKEN}`] },
      },
    }))
    const { code, stderr } = await run(
      [
        'members',
        'add',
        'ch_1',
        '--name',
        'A',
        '--email',
        'a@example.com',
        '--membership-type',
        's',
      ],
      CLIENT,
    )
    expect(code).toBe(2)
    expect(stderr).toContain('client [redacted] may not do this')
    expect(stderr).toMatch(/name\s+rejected for token \[redacted\]/)
    expectNoSecret(stderr)
  })

  it('masks them in the result rows of a bulk run', async () => {
    await serveAfterToken((r) =>
      // The chamber exists (the run checks it before the first row); the row fails.
      r.method === 'GET'
        ? { status: 200, body: { id: 'ch_1', name: 'One' } }
        : {
            status: 500,
            body: { error: `internal: password=${SECRET} header Authorization ${TOKEN}` },
          },
    )
    const file = path.join(tempDir(), 'rows.ndjson')
    writeFileSync(file, JSON.stringify({ name: 'A', email: 'a@example.com', membership_type: 's' }))
    const { code, stdout, stderr } = await run(
      ['members', 'add', 'ch_1', '--from-file', file],
      CLIENT,
    )
    expect(code).toBe(1)
    const [row] = ndjson<{ status: string; error: { message: string } }>(stdout)
    expect(row).toMatchObject({ status: 'failed' })
    expect(row!.error.message).toContain('password=[redacted]')
    expectNoSecret(stdout + stderr)
  })
})
