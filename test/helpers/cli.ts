// Shared by the command tests (in-process `main`) and the end-to-end tests (the built binary): a
// real sandbox on an ephemeral port with its request log, private temp config directories, and a
// recording proxy for the one thing the sandbox's log does not show, request headers.
import { spawn } from 'node:child_process'
import {
  existsSync,
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import type { Readable } from 'node:stream'
import { afterAll, afterEach, beforeAll, expect } from 'vitest'
import { main } from '../../src/cli/main.js'
import type { Profile } from '../../src/config/profiles.js'
import { tokenKey } from '../../src/config/tokens.js'
import type { ProfileToken, TokenOwner } from '../../src/config/tokens.js'
import { demoDataset } from '../../src/sandbox/demo-data.js'
import { startSandbox } from '../../src/sandbox/server.js'
import type { RequestLogEntry, Sandbox, SandboxOptions } from '../../src/sandbox/server.js'
import { closedPortUrl } from './fake-api.js'
import { createTestIO } from './test-io.js'

// The sandbox clock of the command tests: demo event dates are anchored on this day.
export const NOW = Date.UTC(2025, 5, 18, 10, 30, 0)
export {
  DEMO_LARGE_CHAMBER_ID as BIG_CHAMBER,
  DEMO_LARGE_CHAMBER_MEMBERS as BIG_CHAMBER_MEMBERS,
} from '../../src/sandbox/demo-data.js'
export const CHAMBER_IDS = Array.from(
  { length: 10 },
  (_, i) => `ch_${String(i + 1).padStart(4, '0')}`,
)

export type SandboxFixture = {
  sandbox: Sandbox
  v1: string
  v2: string
  // Every request the sandbox answered, in order; cleared with reset().
  requests: RequestLogEntry[]
  reset(): void
  close(): Promise<void>
}

export async function openSandbox(options: SandboxOptions = {}): Promise<SandboxFixture> {
  const requests: RequestLogEntry[] = []
  const sandbox = await startSandbox({
    port: 0,
    ...options,
    onRequest: (entry) => {
      requests.push(entry)
      options.onRequest?.(entry)
    },
  })
  return {
    sandbox,
    v1: sandbox.baseUrl('v1'),
    v2: sandbox.baseUrl('v2'),
    requests,
    reset: () => void requests.splice(0),
    close: () => sandbox.close(),
  }
}

// With CHAMBERCTL_TEST_PRISM_PROXY (the shared tools' proxy.sh), a file's sandbox is reached
// through Prism's validation proxy, which refuses any request or answer that breaks the spec's
// OpenAPI document and logs it into CHAMBERCTL_TEST_PRISM_LOGS (scripts/conformance.sh reads
// those logs). Prism starts slowly, hence the long wait.
const PRISM_PROXY = process.env.CHAMBERCTL_TEST_PRISM_PROXY
const PRISM_START_MS = 180_000

async function behindPrism(fixture: SandboxFixture): Promise<SandboxFixture> {
  const port = new URL(await closedPortUrl()).port
  const upstream = new URL(fixture.v2).origin
  const logs = process.env.CHAMBERCTL_TEST_PRISM_LOGS ?? tmpdir()
  const log = openSync(path.join(logs, `prism-proxy-${port}.log`), 'a')
  const proxy = spawn(PRISM_PROXY!, [upstream, String(port)], { stdio: ['ignore', log, log] })
  const root = `http://127.0.0.1:${port}`
  for (const started = Date.now(); ;) {
    if (
      await fetch(`${root}/`).then(
        () => true,
        () => false,
      )
    )
      break
    if (proxy.exitCode !== null || Date.now() - started > PRISM_START_MS) {
      throw new Error(`Prism's proxy did not start on ${root}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return {
    ...fixture,
    v1: `${root}/v1`,
    v2: `${root}/v2`,
    close: async () => {
      proxy.kill()
      closeSync(log)
      await fixture.close()
    },
  }
}

// One sandbox for a whole file: started in beforeAll, closed in afterAll.
export function useSandbox(options: SandboxOptions = {}): () => SandboxFixture {
  let fixture: SandboxFixture | undefined
  beforeAll(
    async () => {
      const opened = await openSandbox(options)
      fixture = PRISM_PROXY ? await behindPrism(opened) : opened
    },
    PRISM_PROXY ? PRISM_START_MS + 10_000 : undefined,
  )
  afterAll(async () => {
    await fixture?.close()
  })
  return () => {
    if (!fixture) throw new Error('the sandbox is started in beforeAll')
    return fixture
  }
}

// A sandbox of its own for one test (its own clock, latency or failures), always closed.
export async function withSandbox<T>(
  options: SandboxOptions,
  test: (fixture: SandboxFixture) => Promise<T>,
): Promise<T> {
  const fixture = await openSandbox(options)
  try {
    return await test(fixture)
  } finally {
    await fixture.close()
  }
}

// A fresh private directory per call, removed after the test that asked for it.
export function useTempDirs(prefix = 'chamberctl-test-'): () => string {
  const made: string[] = []
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  return () => {
    const dir = mkdtempSync(path.join(tmpdir(), prefix))
    made.push(dir)
    return dir
  }
}

// The environment a CI job would set to use the sandbox without `login`.
export function credentialsEnv(fixture: SandboxFixture, baseUrl = fixture.v2): NodeJS.ProcessEnv {
  return {
    CHAMBERCTL_BASE_URL: baseUrl,
    CHAMBERCTL_CLIENT_ID: fixture.sandbox.credentials.clientId,
    CHAMBERCTL_CLIENT_SECRET: fixture.sandbox.credentials.clientSecret,
  }
}

// `login` as a script runs it: every value as a flag, the secret to be written to stdin.
export function loginArgs(fixture: SandboxFixture, baseUrl = fixture.v2): string[] {
  const { clientId } = fixture.sandbox.credentials
  return ['login', '--base-url', baseUrl, '--client-id', clientId, '--client-secret-stdin']
}

export type RunOptions = {
  env?: NodeJS.ProcessEnv
  stdoutIsTTY?: boolean
  stderrIsTTY?: boolean
  stdinIsTTY?: boolean
  stdoutWidth?: number
  stdoutIsPipe?: boolean
  // Text that stdin yields before it ends, or a stream the test writes to as it likes.
  stdin?: string | Readable
  // The retry backoff's clock (see recordingSleep); by default a retry really waits.
  sleep?: (ms: number) => Promise<void>
}

// A clock for retries that waits for nothing and records what it was asked to wait.
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = []
  return {
    waits,
    sleep: (ms) => {
      waits.push(ms)
      return Promise.resolve()
    },
  }
}

export type RunResult = { code: number; stdout: string; stderr: string }

// Runs `chamberctl ...args` in this process through main(), with buffered streams.
export async function runMain(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const test = createTestIO({
    stdoutIsTTY: options.stdoutIsTTY,
    stderrIsTTY: options.stderrIsTTY,
    stdinIsTTY: options.stdinIsTTY,
    stdoutWidth: options.stdoutWidth,
    stdoutIsPipe: options.stdoutIsPipe,
    env: options.env,
    stdin: typeof options.stdin === 'string' ? options.stdin : undefined,
  })
  const io =
    options.stdin !== undefined && typeof options.stdin !== 'string'
      ? { ...test.io, in: options.stdin }
      : test.io
  const code = await main(['node', 'chamberctl', ...args], io, undefined, options.sleep)
  return { code, stdout: test.stdout(), stderr: test.stderr() }
}

// Like runMain, but hands over stdin and stderr while the command runs, for prompts.
export function startMain(args: string[], options: Omit<RunOptions, 'stdin'> = {}) {
  const stdin = new PassThrough()
  const test = createTestIO({
    stdoutIsTTY: options.stdoutIsTTY,
    stderrIsTTY: options.stderrIsTTY,
    stdinIsTTY: options.stdinIsTTY,
    env: options.env,
  })
  const done = main(['node', 'chamberctl', ...args], { ...test.io, in: stdin }).then((code) => ({
    code,
    stdout: test.stdout(),
    stderr: test.stderr(),
  }))
  return { stdin, stderr: test.stderr, done }
}

// Resolves once `read()` matches, checking on every turn of the event loop; rejects after
// `timeoutMs` so that a missing line fails the test instead of hanging it.
export async function until(
  read: () => string,
  pattern: RegExp,
  timeoutMs = 5_000,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const match = read().match(pattern)
    if (match) return match
    if (Date.now() > deadline) {
      throw new Error(`no ${pattern} within ${timeoutMs} ms in:\n${read()}`)
    }
    await new Promise((resolve) => setImmediate(resolve))
  }
}

export function configFile(dir: string): string {
  return path.join(dir, 'config.json')
}

export function readProfiles(dir: string): Record<string, Profile> {
  const text = readFileSync(configFile(dir), 'utf8')
  return (JSON.parse(text) as { profiles?: Record<string, Profile> }).profiles ?? {}
}

// A profile as config.json holds it, and a snapshot of its token cache (tokens/<name>.json) as
// `tokens`, by base URL, when it has one.
export type StoredProfile = Profile & { tokens?: Record<string, ProfileToken> }

export function readProfile(dir: string, name = 'default'): StoredProfile {
  const profile = readProfiles(dir)[name]
  if (!profile) throw new Error(`no profile ${name} in ${configFile(dir)}`)
  const tokens = readTokenFile(dir, name)?.tokens
  return tokens === undefined ? profile : { ...profile, tokens }
}

export function tokenFile(dir: string, name = 'default'): string {
  return path.join(dir, 'tokens', `${name}.json`)
}

function readTokenFile(
  dir: string,
  name: string,
): { profile: string; tokens: Record<string, ProfileToken> } | undefined {
  const file = tokenFile(dir, name)
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined
}

// Edits a profile behind chamberctl's back, as a user (or time) would.
export function patchProfile(dir: string, patch: Partial<Profile>, name = 'default'): void {
  const file = configFile(dir)
  const config = JSON.parse(readFileSync(file, 'utf8')) as { profiles: Record<string, Profile> }
  config.profiles[name] = { ...config.profiles[name], ...patch }
  writeFileSync(file, JSON.stringify(config))
}

// The token a profile had cached for a base URL (its own, unless another is named).
export function tokenOf(
  profile: StoredProfile,
  baseUrl = profile.base_url!,
): ProfileToken | undefined {
  return profile.tokens?.[tokenKey(baseUrl)]
}

// Edits the token a profile has cached for its own base URL (or another one).
export function patchToken(
  dir: string,
  patch: Partial<ProfileToken & TokenOwner>,
  name = 'default',
  baseUrl?: string,
): void {
  const profile = readProfile(dir, name)
  const key = tokenKey(baseUrl ?? profile.base_url!)
  const token = { access_token: '', ...tokenOf(profile, key), ...patch }
  const file = tokenFile(dir, name)
  writeFileSync(
    file,
    JSON.stringify({ profile: name, tokens: { ...profile.tokens, [key]: token } }),
  )
}

export function modeOf(file: string): number {
  return statSync(file).mode & 0o777
}

// Runs chamberctl with a fresh private config directory per test and only what the test gives.
export function useBareCommands() {
  const tempDir = useTempDirs('chamberctl-config-')
  let dir: string | undefined
  afterEach(() => {
    dir = undefined
  })
  const configDir = () => (dir ??= tempDir())
  const runBare = (args: string[], options: RunOptions = {}): Promise<RunResult> =>
    runMain(args, { ...options, env: { CHAMBERCTL_CONFIG_DIR: configDir(), ...options.env } })
  // A temp directory besides the test's config directory (a second profile home, say).
  return { configDir, tempDir, runBare }
}

// The command tests' way of running chamberctl: useBareCommands, with the sandbox's credentials
// in the environment, each overridable per run.
export function useCommands(fixture: () => SandboxFixture) {
  const { configDir, tempDir, runBare } = useBareCommands()
  // `login` as a script runs it (loginArgs, then any extra flags), the client secret on stdin
  // unless the test gives other input; into the test's config directory unless `dir` is given.
  const login = (
    on: SandboxFixture,
    options: { dir?: string; baseUrl?: string; extra?: string[]; stdin?: string } = {},
  ): Promise<RunResult> =>
    runBare([...loginArgs(on, options.baseUrl), ...(options.extra ?? [])], {
      stdin: options.stdin ?? `${on.sandbox.credentials.clientSecret}\n`,
      env: options.dir ? { CHAMBERCTL_CONFIG_DIR: options.dir } : {},
    })
  return {
    configDir,
    tempDir,
    run(args: string[], options: RunOptions = {}): Promise<RunResult> {
      return runMain(args, {
        ...options,
        env: { CHAMBERCTL_CONFIG_DIR: configDir(), ...credentialsEnv(fixture()), ...options.env },
      })
    },
    runBare,
    login,
    // A logged-in profile whose cached token the server does not know, though it has not
    // expired (unless the patch says otherwise), its stored secret replaced when one is given;
    // the sandbox's request log cleared.
    async loginWithStaleToken(patch: Partial<ProfileToken> = {}, secret?: string): Promise<void> {
      const { code, stderr } = await login(fixture())
      expect(code, stderr).toBe(0)
      patchToken(configDir(), {
        access_token: 'sbx_v2_stale',
        expires_at: Date.now() + 3_600_000,
        ...patch,
      })
      if (secret) patchProfile(configDir(), { client_secret: secret })
      fixture().reset()
    },
  }
}

// The usual set-up of a command test file: one sandbox for the file on the clock NOW, its demo
// data as of that day (what the tests expect to read), and useCommands' ways of running.
export function useDemoSandbox() {
  const sandbox = useSandbox({ now: () => NOW })
  return { sandbox, demo: demoDataset(NOW), ...useCommands(sandbox) }
}

// A bulk run's summary line: the counts, any note (` (interrupted)`), and the time it took.
export function summaryLine(counts: string, note = ''): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`^${escape(counts)}${escape(note)} in \\d+\\.\\d s\\n?$`)
}
