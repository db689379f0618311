// Feedback while a server is slow (contract §5), with the built binary on a real terminal: once a
// request has had no answer for about a second, stderr says what it waits for and counts the
// attempts, for lists, records, creates and login; it is gone when the answer comes, never in a
// pipe or with -q, and the final error names the attempts and the time. The servers are loopback
// listeners that never answer, or a proxy that holds the answer until the test lets it through:
// what the screen shows depends on what the test does, not on a clock.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { credentialsEnv, useSandbox, useTempDirs } from '../helpers/sandbox.js'
import { startGate } from '../helpers/gate.js'
import type { Gate } from '../helpers/gate.js'
import { HAVE_PTY, startPty } from '../helpers/pty.js'
import { startFakeApi } from '../helpers/fake-api.js'
import type { FakeApi } from '../helpers/fake-api.js'
import { runCli } from '../helpers/run-cli.js'
import { HAVE_TMUX, startTmux } from '../helpers/tmux.js'
import type { TmuxSession } from '../helpers/tmux.js'

const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-waiting-')
const TIMEOUT = 30_000

const open: { close(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((thing) => thing.close()))
})

// A server that takes every request and never answers.
async function silent(): Promise<FakeApi> {
  const listener = await startFakeApi({ answer: () => 'hang', token: false })
  open.push(listener)
  return listener
}

function env(baseUrl: string): NodeJS.ProcessEnv {
  const dir = tempDir()
  return {
    TERM: 'xterm',
    HOME: dir,
    CHAMBERCTL_CONFIG_DIR: dir,
    CHAMBERCTL_BASE_URL: baseUrl,
    CHAMBERCTL_TOKEN: 'any',
  }
}

async function tmux(args: string[], environment: NodeJS.ProcessEnv): Promise<TmuxSession> {
  const session = await startTmux([...args, '--no-pager'], { env: environment, columns: 100 })
  open.push(session)
  return session
}

const hostOf = (url: string) => new URL(url).host.replace(/\./g, '\\.')

describe.skipIf(!HAVE_PTY)('waiting for a server that does not answer', () => {
  it(
    'counts the attempts on the terminal, then names them and the time in the error',
    async () => {
      const server = await silent()
      const host = hostOf(server.baseUrl())
      const session = startPty(['chambers', 'list', '--timeout', '1.5', '--no-pager'], {
        env: env(server.baseUrl()),
      })
      const { code, screen } = await session.exited
      expect(code, screen).toBe(5)
      // Each attempt lasts 1.5 s: the first's text may come before or after the spinner's
      // second, the later ones are shown for all of theirs.
      expect(screen).toMatch(new RegExp(`waiting for ${host} — attempt 2 of 3`))
      expect(screen).toMatch(new RegExp(`waiting for ${host} — attempt 3 of 3`))
      // The error follows the last frame, which the screen as read here keeps as text.
      const error = new RegExp(
        `error: no answer from ${host} after 3 attempts in (\\d+\\.\\d) s \\(each waited 1\\.5 s\\)\\r?$`,
        'm',
      )
      expect(screen).toMatch(error)
      // The real time: three attempts of 1.5 s and two backoffs.
      expect(Number(error.exec(screen)![1])).toBeGreaterThanOrEqual(4.5)
      expect(server.requests).toHaveLength(3)
    },
    TIMEOUT,
  )

  it(
    'never in a pipe, nor with -q',
    async () => {
      const server = await silent()
      const host = hostOf(server.baseUrl())
      const piped = await runCli(['chambers', 'list', '--timeout', '0.5'], {
        configDir: tempDir(),
        env: { CHAMBERCTL_BASE_URL: server.baseUrl(), CHAMBERCTL_TOKEN: 'any' },
      })
      expect(piped.code).toBe(5)
      // One line, the error alone. Whether the last attempt was connected when its 0.5 s ran out
      // is the machine's speed, so either wording is right.
      expect(piped.stderr).toMatch(
        new RegExp(
          `^error: (no answer from ${host} after 3 attempts in \\d+\\.\\d s \\(each waited 0\\.5 s\\)|cannot reach ${host} after 3 attempts in \\d+\\.\\d s: no connection within 0\\.5 s)\\n$`,
        ),
      )
      const quiet = startPty(['chambers', 'get', 'ch_0001', '--timeout', '1.2', '-q'], {
        env: env(server.baseUrl()),
      })
      const { code, screen } = await quiet.exited
      expect(code, screen).toBe(5)
      expect(screen).not.toContain('waiting for')
    },
    TIMEOUT,
  )
  it(
    'a bulk run shows its bar alone: no spinner over it while its creates wait',
    async () => {
      // The chamber exists; every create is taken and never answered, for longer than a second.
      const server = await startFakeApi({
        answer: (request) =>
          request.method === 'GET' ? { status: 200, body: { id: 'ch_1', name: 'Held' } } : 'hang',
        token: false,
      })
      open.push(server)
      const environment = env(server.baseUrl())
      const file = path.join(environment.HOME!, 'members.csv')
      writeFileSync(
        file,
        'name,email,membership_type\nA,a@example.com,basic\nB,b@example.com,basic\n',
      )
      const run = startPty(['members', 'add', 'ch_1', '--from-file', file, '--timeout', '2'], {
        env: environment,
      })
      const { code, screen } = await run.exited
      // Unknown outcomes: exit 5.
      expect(code, screen).toBe(5)
      expect(screen).toMatch(/0\/2 rows \|/)
      expect(screen).not.toContain('waiting for')
      expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(2)
    },
    TIMEOUT,
  )
})

describe.skipIf(!HAVE_TMUX)('the line while waiting', () => {
  it(
    'a record, a create and login each say what they wait for (a create counts no attempts)',
    async () => {
      const server = await silent()
      const host = hostOf(server.baseUrl())
      const get = await tmux(['chambers', 'get', 'ch_0001'], env(server.baseUrl()))
      await get.waitFor(new RegExp(`waiting for ${host} — attempt 1 of 3$`))
      const create = await tmux(
        ['chambers', 'create', '--name', 'Slow', '--type', 'hq', '--address-field', 'city=X'],
        env(server.baseUrl()),
      )
      await create.waitFor(new RegExp(`waiting for ${host}$`))
      const { CHAMBERCTL_TOKEN: _, ...noToken } = env(server.baseUrl())
      const login = await tmux(
        ['login', '--base-url', server.baseUrl(), '--client-id', 'someone'],
        { ...noToken, CHAMBERCTL_CLIENT_SECRET: 'not-shown' },
      )
      await login.waitFor(new RegExp(`waiting for ${host} — attempt 1 of 3$`))
      expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual(
        expect.arrayContaining([
          'GET /v2/chambers/ch_0001',
          'POST /v2/chambers',
          'POST /v2/auth/token',
        ]),
      )
    },
    TIMEOUT,
  )

  it(
    'is gone when the answer comes, and the table takes its place',
    async () => {
      const gate: Gate = await startGate(sandbox().sandbox, (method) => method === 'GET')
      open.push(gate)
      const session = await tmux(['chambers', 'list'], {
        ...env(gate.baseUrl('v2')),
        CHAMBERCTL_TOKEN: '',
        ...credentialsEnv(sandbox(), gate.baseUrl('v2')),
      })
      const host = hostOf(gate.baseUrl('v2'))
      await session.waitFor(new RegExp(`waiting for ${host} — attempt 1 of 3$`))
      gate.open()
      expect(await session.exitCode()).toBe(0)
      const screen = (await session.screen()).join('\n')
      expect(screen).toMatch(/^id +name +type/m)
      expect(screen).not.toContain('waiting for')
    },
    TIMEOUT,
  )
})
