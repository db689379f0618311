// The spinner (ora) while a request takes longer than ~300 ms: on a terminal's stderr, never
// with -q, never in a pipe. The sandbox answers every request after 400 ms.
import { describe, expect, it } from 'vitest'
import { credentialsEnv, useSandbox, useTempDirs } from '../helpers/cli.js'
import { HAVE_PTY, startPty, terminalEnv } from '../helpers/pty.js'
import { runCli } from '../helpers/run-cli.js'

const sandbox = useSandbox({ latencyMs: 400 })
const tempDir = useTempDirs('chamberctl-spinner-')
const TIMEOUT = 30_000
// The frames of ora's default spinner (dots).
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/

async function onTerminal(args: string[]) {
  const session = startPty([...args, '--no-pager'], { env: terminalEnv(sandbox(), tempDir()) })
  const { code, screen } = await session.exited
  expect(code, screen).toBe(0)
  return screen
}

describe.skipIf(!HAVE_PTY)('the spinner', () => {
  it(
    'turns while a slow request runs on a terminal',
    async () => {
      const screen = await onTerminal(['chambers', 'get', 'ch_0001'])
      expect(screen).toMatch(SPINNER)
      // The record follows, whole (the spinner's frames were erased by escape sequences that the
      // screen as read here leaves out).
      expect(screen).toMatch(/id: +ch_0001\r?\n/)
      expect(await onTerminal(['members', 'list', 'ch_0001', '--per-page', '2'])).toMatch(SPINNER)
    },
    TIMEOUT,
  )

  it(
    'is never shown with -q, nor in a pipe',
    async () => {
      expect(await onTerminal(['chambers', 'get', 'ch_0001', '-q'])).not.toMatch(SPINNER)
      const piped = await runCli(['chambers', 'get', 'ch_0001'], {
        configDir: tempDir(),
        env: credentialsEnv(sandbox()),
      })
      expect(piped.code, piped.stderr).toBe(0)
      expect(piped.stderr).toBe('')
    },
    TIMEOUT,
  )
})
