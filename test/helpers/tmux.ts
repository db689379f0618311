// Runs the built CLI in a tmux window of a chosen size, for tests that need the screen as a
// terminal renders it (every redraw applied, stale lines visible), not the bytes written to it.
// Each session has a tmux server of its own (its own socket), killed at the end.
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { CLI, ROOT } from './run-cli.js'

const run = promisify(execFile)
export const TMUX = '/usr/bin/tmux'
export const HAVE_TMUX = process.platform === 'linux' && existsSync(TMUX)

export type TmuxSession = {
  // Types `keys` literally; `key` is a tmux key name (Enter, Down, C-c).
  type(keys: string): Promise<void>
  key(name: string): Promise<void>
  // The visible screen, one string per row, trailing blanks trimmed.
  screen(): Promise<string[]>
  // Everything the window has shown, scrolled-off lines included (up to `history` lines), each
  // line as written: a line the terminal wrapped comes back whole, so its width can be measured.
  transcript(): Promise<string[]>
  // Waits until a row of the screen matches; fails after `timeoutMs`.
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string[]>
  // The command's exit code, once it has ended.
  exitCode(timeoutMs?: number): Promise<number>
  // Sends a signal to the command from outside, as `timeout` or a CI runner would.
  signal(signal: NodeJS.Signals): Promise<void>
  close(): Promise<void>
}

let sessions = 0

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`
}

export type TmuxOptions = {
  env: NodeJS.ProcessEnv
  columns: number
  rows?: number
  // `afterExit`: a shell command run in the window after the exit code is printed (what the
  // terminal looks like once the command has gone).
  afterExit?: string
  // Lines kept above the screen for transcript() (tmux's default: 2,000).
  history?: number
}

export function startTmux(args: string[], options: TmuxOptions): Promise<TmuxSession> {
  return startTmuxShell([...CLI, ...args].map(shellQuote).join(' '), options)
}

// The same for a shell command line (a script of several commands, say).
export async function startTmuxShell(
  commandLine: string,
  options: TmuxOptions,
): Promise<TmuxSession> {
  const socket = `chamberctl-test-${process.pid}-${++sessions}`
  // The server starts with no environment of ours (CI=true in CI would turn prompting off):
  // the window gets exactly `options.env`, TERM and a PATH for its shell.
  const tmux = (...argv: string[]) =>
    run(TMUX, ['-L', socket, '-f', '/dev/null', ...argv], {
      env: { PATH: process.env.PATH },
      maxBuffer: 64 << 20,
    })
  // The exit code is printed after the command, and the window is kept for the last screen.
  const after = options.afterExit ? `${options.afterExit}; ` : ''
  const command = `${commandLine}; echo "exit:$?"; ${after}sleep 600`
  const env = Object.entries({ TERM: 'xterm-256color', ...options.env }).flatMap(([key, value]) => [
    '-e',
    `${key}=${value ?? ''}`,
  ])
  // A pane's history limit is fixed when it is made: set before the session.
  const history = options.history
    ? ['start-server', ';', 'set-option', '-g', 'history-limit', String(options.history), ';']
    : []
  await tmux(
    ...history,
    'new-session',
    '-d',
    '-x',
    String(options.columns),
    '-y',
    String(options.rows ?? 30),
    '-c',
    ROOT,
    ...env,
    command,
  )
  const screen = async () =>
    (await tmux('capture-pane', '-p')).stdout.split('\n').map((line) => line.trimEnd())
  const waitFor = async (pattern: RegExp, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const rows = await screen()
      if (rows.some((row) => pattern.test(row))) return rows
      if (Date.now() > deadline) {
        throw new Error(`no ${pattern} on the screen within ${timeoutMs} ms:\n${rows.join('\n')}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  return {
    type: async (keys) => void (await tmux('send-keys', '-l', keys)),
    key: async (name) => void (await tmux('send-keys', name)),
    screen,
    transcript: async () =>
      (await tmux('capture-pane', '-p', '-J', '-S', '-', '-E', '-')).stdout
        .split('\n')
        .map((line) => line.trimEnd()),
    waitFor,
    exitCode: async (timeoutMs) => {
      const rows = await waitFor(/^exit:\d+$/, timeoutMs)
      return Number(rows.find((row) => /^exit:\d+$/.test(row))!.slice(5))
    },
    // The window runs a shell, which runs the command as its one child while it lasts.
    signal: async (signal) => {
      const shell = (await tmux('list-panes', '-F', '#{pane_pid}')).stdout.trim()
      const [child] = readFileSync(`/proc/${shell}/task/${shell}/children`, 'utf8').split(' ')
      process.kill(Number(child), signal)
    },
    close: async () => {
      await tmux('kill-server').catch(() => {})
    },
  }
}
