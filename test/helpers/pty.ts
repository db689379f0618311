// Runs the built CLI in a real pseudo-terminal through util-linux `script`, so that stdin, stdout
// and stderr are all TTYs: keystrokes go to script's stdin, and the screen is what script prints.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { stripVTControlCharacters } from 'node:util'
import stringWidth from 'string-width'
import { credentialsEnv } from './sandbox.js'
import type { SandboxFixture } from './sandbox.js'
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

export type PtyResult = {
  code: number | null
  signal: NodeJS.Signals | null
  // Everything printed, without colours and cursor moves.
  screen: string
  // What the terminal shows at the end (see render).
  shown: string
}

export type PtySession = {
  prompts: Prompts
  // Writes keys to the terminal at once, in one write.
  write(keys: string): void
  // Everything printed so far, without colours and cursor moves.
  screen(): string
  // What the terminal shows now (see render).
  shown(): string
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
      resolve({ code, signal, screen: screen(), shown: render(output) })
    })
  })
  exited.catch(() => {})
  return {
    prompts: new Prompts(() => output, child.stdin, 10_000),
    write: (keys) => void child.stdin.write(keys),
    screen,
    shown: () => render(output),
    exited,
  }
}

// A CSI sequence (its parameters and final byte), another escape sequence (dropped), or one
// character.
const TOKEN =
  // eslint-disable-next-line no-control-regex
  /\u001b\[([?>=]?)([\d;]*)[ -/]*([@-~])|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[ -/]*[0-~]|[^]/gu

// What a terminal shows after `output`, line by line: characters overwrite the cells under the
// cursor; a carriage return, a backspace and cursor moves move it; erasing in the line or the
// display blanks cells; colours and modes are dropped. So a spinner's frames, drawn over each
// other and erased, leave nothing behind, as on a real terminal. Lines are never wrapped or
// scrolled away: a line wider than the terminal stays visible as such. Trailing blanks and
// empty lines at the end go.
export function render(output: string): string {
  const lines: string[][] = [[]]
  let row = 0
  let col = 0
  const line = () => (lines[row] ??= [])
  const blank = (from: number, to: number) => {
    const cells = line()
    for (let i = from; i < Math.min(to, cells.length); i++) cells[i] = ' '
  }
  for (const [token, , params = '', final] of output.matchAll(TOKEN)) {
    const n = Math.max(1, Number(params.split(';')[0]) || 1)
    if (final !== undefined) {
      if (final === 'A') row = Math.max(0, row - n)
      else if (final === 'B') row += n
      else if (final === 'C') col += n
      else if (final === 'D') col = Math.max(0, col - n)
      else if (final === 'G') col = n - 1
      else if (final === 'H' || final === 'f') {
        const [r = 1, c = 1] = params.split(';').map((p) => Number(p) || 1)
        ;[row, col] = [r - 1, c - 1]
      } else if (final === 'K') {
        const mode = Number(params) || 0
        blank(mode === 0 ? col : 0, mode === 1 ? col + 1 : Infinity)
      } else if (final === 'J' && (Number(params) || 0) >= 2) lines.splice(0)
      else if (final === 'J' && !Number(params)) {
        blank(col, Infinity)
        lines.splice(row + 1)
      }
    } else if (token === '\r') col = 0
    else if (token === '\n') row++
    else if (token === '\b') col = Math.max(0, col - 1)
    else if (token === '\t') col = (Math.floor(col / 8) + 1) * 8
    else if (!token.startsWith('\u001b') && token >= ' ') {
      const cells = line()
      while (cells.length < col) cells.push(' ')
      cells[col++] = token
      // A wide character covers the next cell too.
      if (stringWidth(token) === 2) cells[col++] = ''
    }
  }
  const shown = Array.from(lines, (cells) => (cells ?? []).join('').trimEnd())
  while (shown.at(-1) === '') shown.pop()
  return shown.join('\n')
}

// The frames of ora's default spinner (dots).
export const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/

// Resolves once a terminal run of `chambers get` against `baseUrl` (a gate holding its request)
// shows its spinner: every request the gate held before this was called has by then waited
// longer than the spinner's delay, whatever that is; no clock of the test's own decides it.
export async function spinnerShown(env: NodeJS.ProcessEnv): Promise<PtySession> {
  const twin = startPty(['chambers', 'get', 'ch_0001', '--no-pager'], { env })
  await twin.prompts.next(SPINNER)
  return twin
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
