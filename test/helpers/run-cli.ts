// Runs the BUILT CLI (bin/chamberctl.cjs → dist/, built by test/global-setup.ts) as a child process,
// with the Node that runs the tests (process.execPath, never a `node` from PATH) and an environment
// made from scratch: CI=true and a private config directory, nothing inherited from the developer.
// With CHAMBERCTL_E2E_BINARY set to a single executable (`npm run package`), the end-to-end tests
// run that instead (.ci/run runs them so with no Node on PATH).
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const BIN = fileURLToPath(new URL('../../bin/chamberctl.cjs', import.meta.url))

const BINARY = process.env.CHAMBERCTL_E2E_BINARY
export const TESTING_BINARY = BINARY !== undefined && BINARY !== ''
// The command line that starts the CLI, before its arguments.
export const CLI: string[] = TESTING_BINARY
  ? [path.resolve(ROOT, BINARY!)]
  : [process.execPath, BIN]

export type CliOptions = {
  // CHAMBERCTL_CONFIG_DIR (and HOME, so nothing can reach the real home).
  configDir: string
  env?: NodeJS.ProcessEnv
  // 'ignore': /dev/null; 'closed': a pipe closed at once; 'open': a pipe never written or closed;
  // a string: written to a pipe that is then closed; a number: that open file.
  stdin?: 'ignore' | 'closed' | 'open' | { text: string } | number
  // A run that takes longer is killed and fails the test rather than hanging the suite.
  timeoutMs?: number
  // An open file (/dev/full, say) as stdout instead of a pipe.
  stdout?: number
  // The largest file the process may write (`ulimit -f`), for a disk that fills up.
  fileSizeLimitKiB?: number
}

export type CliResult = {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export function cliEnv(configDir: string, env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    CI: 'true',
    HOME: configDir,
    CHAMBERCTL_CONFIG_DIR: configDir,
    ...(process.env.SYSTEMROOT ? { SYSTEMROOT: process.env.SYSTEMROOT } : {}),
    ...env,
  }
}

export function spawnCli(args: string[], options: CliOptions): ChildProcess {
  const stdin = options.stdin ?? 'closed'
  const limit = options.fileSizeLimitKiB
  const [command, argv] =
    limit === undefined
      ? [CLI[0]!, [...CLI.slice(1), ...args]]
      : // bash's ulimit -f counts KiB; Node ignores SIGXFSZ, so a write past it fails (EFBIG).
        ['bash', ['-c', `ulimit -f ${limit} && exec "$0" "$@"`, ...CLI, ...args]]
  const child = spawn(command, argv, {
    cwd: ROOT,
    env: cliEnv(options.configDir, options.env),
    stdio: [
      typeof stdin === 'number' ? stdin : stdin === 'ignore' ? 'ignore' : 'pipe',
      options.stdout ?? 'pipe',
      'pipe',
    ],
  })
  if (typeof stdin === 'object') child.stdin?.end(stdin.text)
  else if (stdin === 'closed') child.stdin?.end()
  return child
}

export type RunningCli = {
  child: ChildProcess
  // Everything printed so far.
  stdout(): string
  stderr(): string
  // Resolves when the child has exited and its streams are closed.
  exited: Promise<CliResult>
  // Resolves with the first match in all that a stream has printed, as soon as it is printed.
  waitFor(
    stream: 'stdout' | 'stderr',
    pattern: RegExp,
    timeoutMs?: number,
  ): Promise<RegExpMatchArray>
}

// Starts the CLI and collects its output; a child still running after `timeoutMs` is killed.
export function startCli(args: string[], options: CliOptions): RunningCli {
  const child = spawnCli(args, options)
  const text = { stdout: '', stderr: '' }
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (text.stdout += chunk))
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (text.stderr += chunk))
  const timeoutMs = options.timeoutMs ?? 15_000
  const exited = new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`chamberctl did not exit within ${timeoutMs} ms\nstderr: ${text.stderr}`))
    }, timeoutMs)
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      // An open stdin must not keep the pipe, or the test, alive.
      child.stdin?.destroy()
      resolve({ code, signal, ...text })
    })
  })
  // Callers that only wait for output still see a failure to exit through waitFor.
  exited.catch(() => {})

  function waitFor(name: 'stdout' | 'stderr', pattern: RegExp, waitMs = 10_000) {
    return new Promise<RegExpMatchArray>((resolve, reject) => {
      const stream = child[name]
      const check = () => {
        const match = text[name].match(pattern)
        if (!match) return
        done()
        resolve(match)
      }
      const onClose = () => {
        done()
        reject(new Error(`${name} closed without ${pattern}:\n${text[name]}`))
      }
      const timer = setTimeout(() => {
        done()
        reject(new Error(`no ${pattern} on ${name} within ${waitMs} ms:\n${text[name]}`))
      }, waitMs)
      const done = () => {
        clearTimeout(timer)
        stream?.off('data', check)
        stream?.off('close', onClose)
      }
      // Registered after the collecting listener, so `text` already holds each new chunk.
      stream?.on('data', check)
      stream?.on('close', onClose)
      check()
    })
  }

  return { child, stdout: () => text.stdout, stderr: () => text.stderr, exited, waitFor }
}

export function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  return startCli(args, options).exited
}
