// The pager, with the built binary: spawned on a terminal (a stub pager that records its call and
// shows what it read), never in a pipe, never with --no-pager or an empty CHAMBERCTL_PAGER; a
// pager quit after a few lines ends an --all list quietly with exit 0.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { BIG_CHAMBER, credentialsEnv, useSandbox, useTempDirs } from '../helpers/sandbox.js'
import { HAVE_PTY, startPty, terminalEnv } from '../helpers/pty.js'
import { runCli } from '../helpers/run-cli.js'

const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-pager-')
const TIMEOUT = 30_000

// A pager that writes down how it was called (its arguments and LESS), then shows its input.
function stubPager(): { command: string; calls: () => string[] } {
  const dir = tempDir()
  const log = path.join(dir, 'calls.log')
  const stub = path.join(dir, 'pager.sh')
  writeFileSync(stub, `#!/bin/sh\necho "called with [$*] LESS=$LESS" >> '${log}'\nexec cat\n`)
  chmodSync(stub, 0o755)
  return {
    command: `${stub} --from-env`,
    calls: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []),
  }
}

const LIST = ['members', 'list', BIG_CHAMBER, '--per-page', '5']

async function onTerminal(args: string[], env: NodeJS.ProcessEnv) {
  const session = startPty(args, { env: { ...terminalEnv(sandbox(), tempDir()), ...env } })
  const result = await session.exited
  expect(result.code, result.screen).toBe(0)
  // What the terminal shows: a spinner drawn while a slow first answer was awaited (behind
  // Prism's proxy) is erased there.
  return result.shown
}

describe.skipIf(!HAVE_PTY)('the pager', () => {
  it(
    'is spawned on a terminal, from CHAMBERCTL_PAGER before PAGER, and shows the table',
    async () => {
      const pager = stubPager()
      const screen = await onTerminal(LIST, {
        CHAMBERCTL_PAGER: pager.command,
        PAGER: 'false',
      })
      expect(pager.calls()).toEqual(['called with [--from-env] LESS=FRX'])
      // What the pager read: the table and the note under it.
      expect(screen).toMatch(/^id +name/m)
      expect(screen).toMatch(/^Showing 5 of \d+ members/m)
    },
    TIMEOUT,
  )

  it(
    'is PAGER when CHAMBERCTL_PAGER is not set, and chambers get goes through it too',
    async () => {
      const pager = stubPager()
      await onTerminal(['chambers', 'get', 'ch_0001'], { PAGER: pager.command })
      expect(pager.calls()).toHaveLength(1)
    },
    TIMEOUT,
  )

  it(
    'is not spawned with --no-pager, with an empty CHAMBERCTL_PAGER, or in a pipe',
    async () => {
      const pager = stubPager()
      const screen = await onTerminal([...LIST, '--no-pager'], { PAGER: pager.command })
      expect(screen).toMatch(/^id +name/m)
      await onTerminal(LIST, { CHAMBERCTL_PAGER: '', PAGER: pager.command })
      const piped = await runCli(LIST, {
        configDir: tempDir(),
        env: { ...credentialsEnv(sandbox()), CHAMBERCTL_PAGER: pager.command },
      })
      expect(piped.code, piped.stderr).toBe(0)
      expect(piped.stdout.split('\n')).toHaveLength(6)
      expect(pager.calls()).toEqual([])
    },
    TIMEOUT,
  )

  it(
    'is not spawned on TERM=dumb: with the default less, the list ends without waiting for a key',
    async () => {
      const pager = stubPager()
      // More rows than the screen, so that a less started here would stop and wait.
      const long = ['members', 'list', BIG_CHAMBER, '--per-page', '60']
      const screen = await onTerminal(long, { TERM: 'dumb' })
      expect(screen).not.toMatch(/not fully functional|RETURN/)
      expect(screen).toMatch(/^id +name/m)
      await onTerminal(LIST, { TERM: 'dumb', PAGER: pager.command })
      expect(pager.calls()).toEqual([])
    },
    TIMEOUT,
  )

  it(
    'quit after three lines: an --all list ends quietly, exit 0',
    async () => {
      const screen = await onTerminal(['members', 'list', BIG_CHAMBER, '--all'], {
        CHAMBERCTL_PAGER: 'head -n 3',
      })
      const shown = screen.split('\n').filter(Boolean)
      expect(shown).toHaveLength(3)
      expect(shown[0]).toMatch(/^id +name/)
    },
    TIMEOUT,
  )
})

// Help in a real terminal: rendered for its width, and through the pager when it is longer.
describe.skipIf(!HAVE_PTY)('help on a terminal', () => {
  async function help(args: string[], env: NodeJS.ProcessEnv, columns: number, rows: number) {
    const session = startPty(args, {
      env: { ...terminalEnv(sandbox(), tempDir()), ...env },
      columns,
      rows,
    })
    const result = await session.exited
    expect(result.code, result.screen).toBe(0)
    return result.screen.split(/\r?\n/)
  }

  it(
    'help environment at 60 columns: no line wider, no raw Markdown, no pager when it fits',
    async () => {
      const pager = stubPager()
      const screen = await help(['help', 'environment'], { PAGER: pager.command }, 60, 500)
      expect(screen.filter((line) => line.length > 60)).toEqual([])
      expect(screen.filter((line) => /^#+ |`/.test(line))).toEqual([])
      expect(screen).toContain('Environment variables')
      expect(pager.calls()).toEqual([])
    },
    TIMEOUT,
  )

  it(
    'help reference longer than the screen goes through the pager, not on TERM=dumb',
    async () => {
      const pager = stubPager()
      const screen = await help(['help', 'reference'], { PAGER: pager.command }, 80, 24)
      expect(pager.calls()).toEqual(['called with [--from-env] LESS=FRX'])
      expect(screen).toContain('chamberctl reference')
      await help(['help', 'reference'], { TERM: 'dumb', PAGER: pager.command }, 80, 24)
      expect(pager.calls()).toHaveLength(1)
    },
    TIMEOUT,
  )
})
