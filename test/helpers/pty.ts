// Runs the built CLI in a real pseudo-terminal through util-linux `script`, so that stdin, stdout
// and stderr are all TTYs: keystrokes go to script's stdin, and the screen is what script prints.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { stripVTControlCharacters } from 'node:util'
import { credentialsEnv } from './cli.js'
import type { SandboxFixture } from './cli.js'
import { CLI, ROOT } from './run-cli.js'
import { Prompts } from './session.js'

export const SCRIPT = '/usr/bin/script'
export const HAVE_PTY = process.platform === 'linux' && existsSync(SCRIPT)

export type PtyOptions = {
  // The whole environment of the command (nothing is inherited but PATH).
  env: NodeJS.ProcessEnv
  columns?: number
  rows?: number
  // A run still going after this is killed, failing the test instead of hanging it.
  timeoutMs?: number
}

export type PtyResult = { code: number | null; signal: NodeJS.Signals | null; screen: string }

export type PtySession = {
  prompts: Prompts
  // Writes keys to the terminal at once, in one write.
  write(keys: string): void
  // Everything printed so far, without colours and cursor moves.
  screen(): string
  exited: Promise<PtyResult>
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`
}

export function startPty(args: string[], options: PtyOptions): PtySession {
  const { columns = 120, rows = 40, timeoutMs = 20_000 } = options
  // A terminal of a known size: `script` without a terminal of its own makes one of 0×0.
  const command = [
    `stty cols ${columns} rows ${rows} &&`,
    'exec',
    ...[...CLI, ...args].map(shellQuote),
  ].join(' ')
  const child = spawn(SCRIPT, ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const screen = () => stripVTControlCharacters(output)
  const exited = new Promise<PtyResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`still running after ${timeoutMs} ms; the screen:\n${screen()}`))
    }, timeoutMs)
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      child.stdin.destroy()
      resolve({ code, signal, screen: screen() })
    })
  })
  exited.catch(() => {})
  return {
    prompts: new Prompts(() => output, child.stdin, 10_000),
    write: (keys) => void child.stdin.write(keys),
    screen,
    exited,
  }
}

// A terminal session's environment, made from scratch: no CI, no secret typed anywhere, the
// sandbox's credentials, and `configDir` as home and config directory.
export function terminalEnv(fixture: SandboxFixture, configDir: string): NodeJS.ProcessEnv {
  return {
    TERM: 'xterm',
    HOME: configDir,
    CHAMBERCTL_CONFIG_DIR: configDir,
    ...credentialsEnv(fixture),
  }
}
