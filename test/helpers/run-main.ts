// Running chamberctl in this process through main(), with buffered streams and chosen TTY flags:
// to the end (runMain), or as a session the test talks to while it runs (startSession: stdin
// left open, Ctrl-C, stdout watched); and the command tests' ways of doing so with a private
// config directory per test and a sandbox's credentials.
import { PassThrough, Writable } from 'node:stream'
import type { Readable } from 'node:stream'
import type { Dispatcher } from 'undici'
import { afterEach, expect } from 'vitest'
import { main } from '../../src/cli/main.js'
import type { StopReason } from '../../src/io/streams.js'
import type { Timers } from '../../src/cmdutil/waiting.js'
import type { ProfileToken } from '../../src/config/tokens.js'
import { demoDataset } from '../../src/sandbox/demo-data.js'
import { patchProfile, patchToken } from './config-files.js'
import { NOW, credentialsEnv, loginArgs, useSandbox, useTempDirs } from './sandbox.js'
import type { SandboxFixture } from './sandbox.js'
import { asTerminal, createTestIO } from './test-io.js'

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
  // What the client sends through (a connection the test has already made, say); by default the
  // client's own.
  dispatcher?: Dispatcher
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

// Timers that never fire, for what is bounded by a person's patience on a real clock: the line
// saying what a request waits for (due after a second without an answer) and completion's budget
// (a second in all). A loaded machine may take that long for any request: a terminal's stderr
// would then hold a spinner the test did not ask for, and a completion would print nothing. Both
// are tested on timers moved by hand (test/cmdutil/waiting.test.ts) and with the built binary
// (test/e2e/waiting-pty.test.ts, test/completion/chamber-ids.test.ts).
export const NEVER_DUE: Timers = { set: () => undefined, clear: () => {} }

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
  const code = await main(
    ['node', 'chamberctl', ...args],
    io,
    options.dispatcher,
    options.sleep,
    NEVER_DUE,
  )
  return { code, stdout: test.stdout(), stderr: test.stderr() }
}

export type SessionOptions = {
  env?: NodeJS.ProcessEnv
  stdinIsTTY?: boolean
  stdoutIsTTY?: boolean
  stderrIsTTY?: boolean
  stdoutWidth?: number
  // Called with each chunk the command writes to stdout, as it writes it.
  onStdout?: (chunk: string) => void
  // stdout and stderr into one log as well, in the order they were written, as on a terminal.
  combined?: boolean
  // The retry backoff's clock (see recordingSleep).
  sleep?: (ms: number) => Promise<void>
}

export type Session = {
  // Never ended unless the test ends it: a command that reads it would wait forever.
  stdin: PassThrough
  stdout(): string
  stderr(): string
  // stdout and stderr interleaved (only with `combined`).
  screen(): string
  // Ctrl-C by default, or another reason to stop (SIGTERM, SIGHUP, a closed stdout).
  interrupt(reason?: StopReason): void
  done: Promise<RunResult>
}

function tee(target: Writable, ...listeners: ((chunk: string) => void)[]): Writable {
  return new Writable({
    // Passed on at once, so that what is written directly and what is teed keep their order.
    write(chunk: Buffer, _encoding, callback) {
      for (const listener of listeners) listener(chunk.toString())
      target.write(chunk)
      callback()
    },
  })
}

export function startSession(args: string[], options: SessionOptions = {}): Session {
  const stdin = new PassThrough()
  const test = createTestIO({
    stdinIsTTY: options.stdinIsTTY,
    stdoutIsTTY: options.stdoutIsTTY,
    stderrIsTTY: options.stderrIsTTY,
    stdoutWidth: options.stdoutWidth,
    env: options.env,
  })
  let screen = ''
  const record = (chunk: string) => {
    if (options.combined) screen += chunk
  }
  const io = {
    ...test.io,
    in: stdin,
    out: asTerminal(
      tee(test.io.out, record, (chunk) => options.onStdout?.(chunk)),
      test.io.stdoutIsTTY,
      options.stdoutWidth,
    ),
    err: asTerminal(tee(test.io.err, record), test.io.stderrIsTTY, options.stdoutWidth),
  }
  const done = main(['node', 'chamberctl', ...args], io, undefined, options.sleep, NEVER_DUE).then(
    (code) => ({
      code,
      stdout: test.stdout(),
      stderr: test.stderr(),
    }),
  )
  return {
    stdin,
    stdout: test.stdout,
    stderr: test.stderr,
    screen: () => screen,
    interrupt: test.interrupt,
    done,
  }
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
