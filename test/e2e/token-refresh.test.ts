// Processes whose cached token expired together make one token request, not one each (contract
// §2): one refreshes under the profile's refresh lock, the others wait for its token file. The
// wait is bounded: a refresher that died leaves a lock that is taken over once stale (its age is
// set here, rather than waited for). Counted at the server.
import { utimesSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { patchToken, tokenFile } from '../helpers/config-files.js'
import { runMain } from '../helpers/run-main.js'
import { useTempDirs } from '../helpers/sandbox.js'
import { runCli, startCli } from '../helpers/run-cli.js'
import { startTokenServer } from '../helpers/fake-api.js'
import type { TokenServer } from '../helpers/fake-api.js'

const tempDir = useTempDirs('chamberctl-refresh-')
const PROCESSES = 6
let server: TokenServer
let dir: string

beforeEach(async () => {
  server = await startTokenServer()
  dir = tempDir()
  const login = await runMain(
    ['login', '--base-url', server.baseUrl(), '--client-id', 'ci', '--client-secret-stdin'],
    { env: { CHAMBERCTL_CONFIG_DIR: dir }, stdin: 'secret\n' },
  )
  expect(login.code, login.stderr).toBe(0)
  patchToken(dir, { expires_at: Date.now() - 60_000 })
  server.requests.length = 0
})
afterEach(() => server.close())

describe('processes with one expired token', () => {
  it(`${PROCESSES} at once make one token request and all use its token`, async () => {
    const runs = await Promise.all(
      Array.from({ length: PROCESSES }, () =>
        runCli(['auth', 'token'], { configDir: dir, timeoutMs: 60_000 }),
      ),
    )
    for (const run of runs) expect(run.code, run.stderr).toBe(0)
    expect(server.tokenRequests()).toEqual(['ci'])
    expect(new Set(runs.map((run) => run.stdout))).toEqual(new Set(['tok-ci-2\n']))
  })

  it('take over from a refresher that died, once its lock is stale, and refresh once', async () => {
    server.hold('ci')
    const refresher = startCli(['auth', 'token'], { configDir: dir })
    await server.whenHeld(1)
    refresher.child.kill('SIGKILL')
    await refresher.exited
    // What the passing of the stale time would do to the lock it left.
    const past = new Date(Date.now() - 60_000)
    utimesSync(`${tokenFile(dir)}.refresh.lock`, past, past)
    server.release()

    const runs = await Promise.all(
      Array.from({ length: 3 }, () => runCli(['auth', 'token'], { configDir: dir })),
    )
    for (const run of runs) expect(run.code, run.stderr).toBe(0)
    // The dead one's request, then one for the three.
    expect(server.tokenRequests()).toEqual(['ci', 'ci'])
    expect(new Set(runs.map((run) => run.stdout))).toEqual(new Set(['tok-ci-3\n']))
  })
})
