// `chamberctl __complete chamber-ids`: ids from the server, a private cache per base URL that
// spares the server a second listing, and silence on failure. What it answers is run in this
// process, on timers that never run out: its budget is a second of the real clock, which a
// loaded machine may spend on any lookup. How it answers nothing, the budget running out
// included, is run as the scripts run it, with the built CLI.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { closedPortUrl } from '../helpers/fake-api.js'
import { CHAMBER_IDS, credentialsEnv, useSandbox, useTempDirs } from '../helpers/sandbox.js'
import { modeOf } from '../helpers/config-files.js'
import { startSilent } from '../helpers/network.js'
import { lines } from '../helpers/output.js'
import { runCli } from '../helpers/run-cli.js'
import { runMain } from '../helpers/run-main.js'

const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-complete-')
const POSIX = process.platform !== 'win32'
const ARGS = ['__complete', 'chamber-ids']

afterEach(() => sandbox().reset())

// The lookup in this process, with `configDir` as the config directory.
function complete(configDir: string, env: NodeJS.ProcessEnv = {}, args = ARGS) {
  return runMain(args, { env: { CHAMBERCTL_CONFIG_DIR: configDir, ...env } })
}

function cacheFile(configDir: string): string {
  return path.join(configDir, 'completion-cache.json')
}

describe('__complete chamber-ids', () => {
  it('prints id<TAB>name per chamber, then answers from a private cache', async () => {
    const configDir = tempDir()
    const env = credentialsEnv(sandbox())

    const first = await complete(configDir, env)
    expect(first.code, first.stderr).toBe(0)
    expect(first.stderr).toBe('')
    expect(lines(first.stdout).map((line) => line.split('\t')[0])).toEqual(CHAMBER_IDS)
    expect(lines(first.stdout).every((line) => /^ch_\d{4}\t\S/.test(line))).toBe(true)
    expect(sandbox().requests.some((r) => r.path.startsWith('/v2/chambers'))).toBe(true)
    if (POSIX) expect(modeOf(cacheFile(configDir))).toBe(0o600)

    sandbox().reset()
    const second = await complete(configDir, env)
    expect(second.code, second.stderr).toBe(0)
    expect(second.stdout).toBe(first.stdout)
    expect(sandbox().requests).toEqual([])
  })

  it('keeps one cache entry per base URL: another server is asked, not answered for', async () => {
    const configDir = tempDir()
    await complete(configDir, credentialsEnv(sandbox(), sandbox().v2))
    sandbox().reset()

    const v1 = await complete(configDir, credentialsEnv(sandbox(), sandbox().v1))
    expect(v1.code, v1.stderr).toBe(0)
    expect(lines(v1.stdout)).toHaveLength(CHAMBER_IDS.length)
    expect(sandbox().requests.some((r) => r.path.startsWith('/v1/chambers'))).toBe(true)
    const cache = JSON.parse(readFileSync(cacheFile(configDir), 'utf8')) as {
      entries: Record<string, unknown>
    }
    expect(Object.keys(cache.entries).sort()).toEqual([sandbox().v1, sandbox().v2])
  })

  it('lists again once the cache is a minute old', async () => {
    const configDir = tempDir()
    const env = credentialsEnv(sandbox())
    await complete(configDir, env)
    const file = cacheFile(configDir)
    const cache = JSON.parse(readFileSync(file, 'utf8')) as {
      entries: Record<string, { listed_at: number }>
    }
    cache.entries[sandbox().v2]!.listed_at -= 61_000
    writeFileSync(file, JSON.stringify(cache))
    sandbox().reset()

    const { stdout } = await complete(configDir, env)
    expect(lines(stdout)).toHaveLength(CHAMBER_IDS.length)
    expect(sandbox().requests.some((r) => r.path.startsWith('/v2/chambers'))).toBe(true)
  })

  it('a corrupt cache file is a miss, not an error', async () => {
    const configDir = tempDir()
    writeFileSync(cacheFile(configDir), '{not json')
    const { code, stdout } = await complete(configDir, credentialsEnv(sandbox()))
    expect(code).toBe(0)
    expect(lines(stdout)).toHaveLength(CHAMBER_IDS.length)
  })

  it('answers for the embedded sandbox too (--sandbox)', async () => {
    const { code, stdout, stderr } = await complete(tempDir(), {}, ['--sandbox', ...ARGS])
    expect(code, stderr).toBe(0)
    expect(lines(stdout).map((line) => line.split('\t')[0])).toEqual(CHAMBER_IDS)
  })
})

describe('__complete chamber-ids prints nothing and exits 0 when it cannot answer', () => {
  it('not logged in', async () => {
    const result = await runCli(ARGS, { configDir: tempDir(), timeoutMs: 5_000 })
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' })
  })

  it('wrong credentials', async () => {
    const env = { ...credentialsEnv(sandbox()), CHAMBERCTL_CLIENT_SECRET: 'wrong' }
    const result = await runCli(ARGS, { configDir: tempDir(), env, timeoutMs: 5_000 })
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' })
  })

  it('an unreachable server: it returns at once', async () => {
    const env = { ...credentialsEnv(sandbox()), CHAMBERCTL_BASE_URL: await closedPortUrl() }
    // The run is killed, and the test fails, if it takes longer than this.
    const result = await runCli(ARGS, { configDir: tempDir(), env, timeoutMs: 5_000 })
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' })
  })

  it('a server that accepts the connection and never answers: abandoned after a second', async () => {
    const silent = await startSilent()
    try {
      const env = {
        ...credentialsEnv(sandbox()),
        CHAMBERCTL_BASE_URL: `http://127.0.0.1:${silent.port}/v2`,
        // The per-request timeout a user set does not lengthen the wait.
        CHAMBERCTL_TIMEOUT: '60',
      }
      const result = await runCli(ARGS, { configDir: tempDir(), env, timeoutMs: 5_000 })
      expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' })
    } finally {
      await silent.close()
    }
  })

  it('an unknown question', async () => {
    const result = await runCli(['__complete', 'member-ids'], { configDir: tempDir() })
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' })
  })
})
