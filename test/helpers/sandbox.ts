// Sandbox set-up shared by the command tests and the end-to-end tests: a real sandbox on an
// ephemeral loopback port with its request log (one per file, or one for a test), reached
// through Prism's validation proxy in the conformance job; the environment and login arguments
// that use it; and private temporary directories.
import { spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { startSandbox } from '../../src/sandbox/server.js'
import type { RequestLogEntry, Sandbox, SandboxOptions } from '../../src/sandbox/server.js'
import { closedPortUrl } from './fake-api.js'

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
