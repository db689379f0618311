// The built binary as a process: stdin that is not a TTY, login/status/logout with files on disk,
// and `chamberctl sandbox` as a long-running child stopped by SIGTERM.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  CHAMBER_IDS,
  credentialsEnv,
  loginArgs,
  useSandbox,
  useTempDirs,
} from '../helpers/sandbox.js'
import { modeOf } from '../helpers/config-files.js'
import { lines, tsvColumn } from '../helpers/output.js'
import { runCli, startCli, TESTING_BINARY } from '../helpers/run-cli.js'
import { DEFAULT_CREDENTIALS } from '../../src/sandbox/server.js'
import type { Sandbox } from '../../src/sandbox/server.js'
import { ApiClient } from '../sandbox/helpers.js'

const POSIX = process.platform !== 'win32'
const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-e2e-')

// The npm bin's: the host's single executable starts from a snapshot and writes no cache.
describe.skipIf(TESTING_BINARY)('the V8 code caches the launcher writes after a run', () => {
  const cacheName = (key: string) =>
    new RegExp(
      `^chamberctl-[0-9a-f]{16}-node${process.versions.node}-${process.arch}-${key}\\.cache$`,
    )

  it('live in the OS cache directory, one per command, written once; --version needs none', async () => {
    const cache = tempDir()
    const env = { XDG_CACHE_HOME: cache }
    const version = await runCli(['--version'], { configDir: tempDir(), env })
    expect(version.code).toBe(0)
    expect(readdirSync(cache)).toEqual([])
    const first = await runCli(['chambers', '--help'], { configDir: tempDir(), env })
    expect(first.code).toBe(0)
    // One file, keyed by the bundle, the Node version, the architecture and the command.
    const dir = path.join(cache, 'chamberctl', 'v8')
    const [file, ...others] = readdirSync(dir)
    expect(others).toEqual([])
    expect(file).toMatch(cacheName('chambers'))
    const written = statSync(path.join(dir, file!))
    expect(written.size).toBeGreaterThan(10_000)
    // Accepted by the next run, which leaves it as it is.
    const second = await runCli(['chambers', '--help'], { configDir: tempDir(), env })
    expect(second.stdout).toBe(first.stdout)
    expect(statSync(path.join(dir, file!)).mtimeMs).toBe(written.mtimeMs)
    // Another command has its own; a run that fails writes none.
    const list = await runCli(['chambers', 'list', '--json'], {
      configDir: tempDir(),
      env: { ...env, ...credentialsEnv(sandbox()) },
    })
    expect(list.code, list.stderr).toBe(0)
    // A run that changed V8's flags while it read pages (src/v8-flags.ts) gave them back before
    // the cache was written: the next run takes it and leaves it as it is.
    const listed = () =>
      statSync(
        path.join(
          dir,
          readdirSync(dir).find((f) => /list/.test(f))!,
        ),
      )
    const listCache = listed()
    const pages = await runCli(['chambers', 'list', '--all', '--per-page', '3', '--json'], {
      configDir: tempDir(),
      env: { ...env, ...credentialsEnv(sandbox()) },
    })
    expect(pages.code, pages.stderr).toBe(0)
    expect(JSON.parse(pages.stdout)).toHaveLength(JSON.parse(list.stdout).length)
    expect([listed().ino, listed().mtimeMs]).toEqual([listCache.ino, listCache.mtimeMs])
    const typo = await runCli(['chambers', 'lsit'], { configDir: tempDir(), env })
    expect(typo.code).toBe(2)
    const files = readdirSync(dir).sort()
    expect(files).toHaveLength(2)
    expect(files[0]).toMatch(cacheName('chambers'))
    expect(files[1]).toMatch(cacheName('chambers\\.list'))
  })

  it('replaces a cache V8 rejects, and the run is not disturbed by it', async () => {
    const { env, first, dir, file } = await firstCache()
    const good = readFileSync(path.join(dir, file))
    writeFileSync(path.join(dir, file), Buffer.alloc(good.length, 7))
    const again = await runCli(['chambers', '--help'], { configDir: tempDir(), env })
    expect(again).toEqual(first)
    expect(readdirSync(dir)).toEqual([file])
    expect(readFileSync(path.join(dir, file)).equals(Buffer.alloc(good.length, 7))).toBe(false)
  })
})

// `chambers --help` in a new cache directory of its own: the run, and the one cache it wrote.
async function firstCache() {
  const env = { XDG_CACHE_HOME: tempDir() }
  const first = await runCli(['chambers', '--help'], { configDir: tempDir(), env })
  const dir = path.join(env.XDG_CACHE_HOME, 'chamberctl', 'v8')
  const [file, ...others] = readdirSync(dir)
  expect(others).toEqual([])
  return { env, first, dir, file: file! }
}

// A code cache runs as the user's own code: one that others could have changed is not read,
// and none is written where others could change it; silently, as it only costs speed.
describe.skipIf(TESTING_BINARY || process.platform === 'win32')(
  'the V8 code caches, where others could change them',
  () => {
    it('a cache others can write to is not read (and is replaced), silently', async () => {
      const { env, first, dir, file } = await firstCache()
      chmodSync(path.join(dir, file), 0o622)
      const again = await runCli(['chambers', '--help'], { configDir: tempDir(), env })
      expect(again).toEqual(first)
      expect(statSync(path.join(dir, file)).mode & 0o777).toBe(0o600)
    })

    it('none is written into a cache directory others can write to, silently', async () => {
      const cache = tempDir()
      mkdirSync(path.join(cache, 'chamberctl'), { mode: 0o777 })
      chmodSync(path.join(cache, 'chamberctl'), 0o777)
      const run = await runCli(['chambers', '--help'], {
        configDir: tempDir(),
        env: { XDG_CACHE_HOME: cache },
      })
      expect(run.code).toBe(0)
      expect(run.stderr).toBe('')
      expect(readdirSync(path.join(cache, 'chamberctl'))).toEqual([])
    })
  },
)

describe('stdin that is not a TTY', () => {
  it.each(['ignore', 'closed', 'open'] as const)(
    'login with stdin %s exits 2 at once, naming the missing flags',
    async (stdin) => {
      const { code, stdout, stderr } = await runCli(['login'], {
        configDir: tempDir(),
        stdin,
        timeoutMs: 5_000,
      })
      expect(code).toBe(2)
      expect(stdout).toBe('')
      expect(stderr).toBe(
        'error: missing --base-url, --client-id, --client-secret-stdin (cannot prompt here)\n',
      )
    },
  )

  it('login --client-secret-stdin with stdin ignored: exit 2, stdin was empty', async () => {
    const { code, stderr } = await runCli(loginArgs(sandbox()), {
      configDir: tempDir(),
      stdin: 'ignore',
      timeoutMs: 5_000,
    })
    expect(code).toBe(2)
    expect(stderr).toBe('error: --client-secret-stdin: stdin was empty\n')
  })

  it('a read command with an open, silent stdin does not wait for it', async () => {
    const { code, stdout } = await runCli(['chambers', 'list', '--sandbox'], {
      configDir: tempDir(),
      stdin: 'open',
      timeoutMs: 5_000,
    })
    expect(code).toBe(0)
    expect(tsvColumn(stdout)).toEqual(CHAMBER_IDS)
  })
})

describe('login, auth status, logout', () => {
  it('stores a private profile, reports it, and forgets its secrets', async () => {
    const configDir = path.join(tempDir(), 'config')
    const file = path.join(configDir, 'config.json')
    const { clientId, clientSecret } = sandbox().sandbox.credentials

    const login = await runCli(loginArgs(sandbox()), {
      configDir,
      stdin: { text: `${clientSecret}\n` },
    })
    expect(login.code, login.stderr).toBe(0)
    expect(login.stdout).toBe('')
    expect(login.stderr).toMatch(/^Logged in to .* as client sandbox-client \(profile default\)$/m)
    if (POSIX) {
      expect(modeOf(configDir)).toBe(0o700)
      expect(modeOf(file)).toBe(0o600)
    }
    const stored = JSON.parse(readFileSync(file, 'utf8')) as {
      profiles: { default: Record<string, unknown> }
    }
    expect(stored.profiles.default).toEqual({
      base_url: sandbox().v2,
      client_id: clientId,
      client_secret: clientSecret,
      login: expect.any(String) as string,
    })
    // The token is cached in a file of the profile's own, so that a refresh never rewrites
    // config.json.
    const tokens = path.join(configDir, 'tokens', 'default.json')
    expect(JSON.parse(readFileSync(tokens, 'utf8'))).toEqual({
      profile: 'default',
      tokens: {
        [sandbox().v2]: {
          access_token: expect.stringMatching(/^sbx_v2_/) as string,
          expires_at: expect.any(Number) as number,
          client_id: clientId,
          login: stored.profiles.default.login,
        },
      },
    })
    if (POSIX) {
      expect(modeOf(path.dirname(tokens))).toBe(0o700)
      expect(modeOf(tokens)).toBe(0o600)
    }

    const status = await runCli(['auth', 'status'], { configDir })
    expect(status.code, status.stderr).toBe(0)
    const row = lines(status.stdout)[0]!.split('\t')
    expect(row.slice(0, 6)).toEqual([
      'default',
      'true',
      sandbox().v2,
      'v2',
      clientId,
      'config_file',
    ])
    expect(status.stderr).toBe(`Checked profile default at ${sandbox().v2}: can authenticate\n`)

    const list = await runCli(['chambers', 'list', '--limit', '3'], { configDir })
    expect(tsvColumn(list.stdout)).toEqual(CHAMBER_IDS.slice(0, 3))

    const logout = await runCli(['logout'], { configDir })
    expect(logout.code).toBe(0)
    const after = JSON.parse(readFileSync(file, 'utf8')) as { profiles: Record<string, unknown> }
    expect(after.profiles.default).toEqual({ base_url: sandbox().v2, client_id: clientId })
    expect(existsSync(tokens)).toBe(false)
    if (POSIX) expect(modeOf(file)).toBe(0o600)

    const denied = await runCli(['auth', 'status'], { configDir })
    expect(denied.code).toBe(4)
    expect(lines(denied.stderr)).toEqual([
      expect.stringMatching(/^error: profile default cannot authenticate/) as string,
    ])
  })

  it('writes nothing for a wrong secret', async () => {
    const configDir = tempDir()
    const { code, stderr } = await runCli(loginArgs(sandbox()), {
      configDir,
      stdin: { text: 'nope' },
    })
    expect(code).toBe(4)
    expect(lines(stderr)).toHaveLength(1)
    const file = path.join(configDir, 'config.json')
    if (existsSync(file)) expect(readFileSync(file, 'utf8')).not.toContain('access_token')
  })
})

describe('chamberctl sandbox', () => {
  it('serves on --port 0, answers the CLI, and exits 0 on SIGTERM', async () => {
    const configDir = tempDir()
    const server = startCli(['sandbox', '--port', '0'], {
      configDir,
      stdin: 'ignore',
      timeoutMs: 15_000,
    })
    try {
      const [, v2] = await server.waitFor('stdout', /^v2 base URL: +(http:\/\/\S+\/v2)$/m)
      const [, secret] = await server.waitFor('stdout', /^client secret: +(\S+)$/m)
      const env = {
        CHAMBERCTL_BASE_URL: v2!,
        CHAMBERCTL_CLIENT_ID: 'sandbox-client',
        CHAMBERCTL_CLIENT_SECRET: secret!,
      }
      const list = await runCli(['chambers', 'list', '--type', 'subsidiary'], { configDir, env })
      expect(list.code, list.stderr).toBe(0)
      expect(tsvColumn(list.stdout)).toEqual(CHAMBER_IDS.slice(4))
      await server.waitFor('stderr', /GET \/v2\/chambers\?\S* 200/)
      // Addresses as the world writes them, added and listed back unchanged.
      const emails = ['müller@example.de', 'a%b@example.com', 'x@bücher.de']
      for (const email of emails) {
        const fields = ['--name', 'M', '--email', email, '--membership-type', 'standard']
        const added = await runCli(['members', 'add', 'ch_0004', ...fields], { configDir, env })
        expect(added.code, added.stderr).toBe(0)
      }
      const members = await runCli(['members', 'list', 'ch_0004', '--all'], { configDir, env })
      expect(tsvColumn(members.stdout, 2).slice(-3)).toEqual(emails)
    } finally {
      server.child.kill('SIGTERM')
    }
    const { code, signal, stdout, stderr } = await server.exited
    expect(signal).toBeNull()
    expect(code).toBe(0)
    expect(stdout).toMatch(/^v1 base URL: +http:\/\/127\.0\.0\.1:\d+\/v1$/m)
    expect(stdout).toMatch(/^client id: +sandbox-client$/m)
    expect(stderr).toMatch(/POST \/v2\/auth\/token 200/)
    expect(stderr).toMatch(/Stopping \(SIGTERM\)/)
  })

  it.each([
    [
      [],
      200,
      /^GET \/v1\/chambers\?sort=name 200 \d+ms\n {2}warning: sort ignored: v1 has no sort$/m,
    ],
    [['--strict'], 422, /^GET \/v1\/chambers\?sort=name 422 \d+ms$/m],
  ])('sandbox %j answers sort on v1 with %i and logs it', async (flags, status, logged) => {
    const server = startCli(['sandbox', '--port', '0', ...flags], {
      configDir: tempDir(),
      stdin: 'ignore',
      timeoutMs: 15_000,
    })
    try {
      const [, v1] = await server.waitFor('stdout', /^v1 base URL: +(http:\/\/\S+\/v1)$/m)
      // The sandbox's own test client, over loopback to the process.
      const sandbox = { baseUrl: () => v1!, credentials: DEFAULT_CREDENTIALS } as unknown as Sandbox
      const reply = await new ApiClient(sandbox, 'v1').get('/chambers', { sort: 'name' })
      expect(reply.status).toBe(status)
      await server.waitFor('stderr', logged)
    } finally {
      server.child.kill('SIGTERM')
    }
    expect((await server.exited).code).toBe(0)
  })
})

describe("--debug's stack trace", () => {
  it('points into the sources through the source map shipped beside the bundle', async () => {
    const { code, stderr } = await runCli(['--debug', 'chambers', 'list', '--json'], {
      configDir: tempDir(),
    })
    expect(code).toBe(4)
    const frames = stderr.split('\n').filter((line) => /^\s+at /.test(line))
    expect(frames.length).toBeGreaterThan(0)
    expect(frames[0]).toMatch(/\(src\/cmdutil\/connect\/connection\.ts:\d+:\d+\)$/)
    expect(stderr).not.toMatch(/chamberctl\.cjs:\d+:\d+/)
  })
})
