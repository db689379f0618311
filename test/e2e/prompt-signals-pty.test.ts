// A signal from outside (what `timeout`, a CI cancel or a closed terminal window send) while a
// prompt waits: the command ends with the signal's exit code, nothing sent, and the terminal is
// given back as it was (echo, line editing and Ctrl-C on), which the shell then reads `stty` from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTempDirs } from '../helpers/sandbox.js'
import { startSilent } from '../helpers/network.js'
import type { Fixture } from '../helpers/network.js'
import { HAVE_TMUX, startTmux } from '../helpers/tmux.js'

const tempDir = useTempDirs('chamberctl-prompt-signals-')
const TIMEOUT = 30_000
// The terminal's modes after the command, one `tty:` line each: `-echo` when echo is off.
const TTY_MODES = `stty -a | tr -s ' ;' '\\n\\n' | grep -x -e -echo -e echo -e -icanon -e icanon -e -isig -e isig | sed 's/^/tty:/'`
// A port that takes connections and answers nothing: login's check before the secret prompt
// passes, and a prompt that sent anything would wait there instead of ending with the signal.
let silent: Fixture
let NOWHERE = ''
beforeAll(async () => {
  silent = await startSilent()
  NOWHERE = `http://127.0.0.1:${silent.port}/v2`
})
afterAll(() => silent.close())

describe.skipIf(!HAVE_TMUX)('a signal at a prompt (tmux)', () => {
  it.each([
    ['SIGTERM', 'Client secret', ['--client-id', 'ci-client'], 143],
    ['SIGHUP', 'Client secret', ['--client-id', 'ci-client'], 129],
    ['SIGINT', 'Client secret', ['--client-id', 'ci-client'], 130],
    ['SIGTERM', 'Client id', [], 143],
  ] as const)(
    '%s at the %s prompt of login ends it with its exit code and the terminal sane again',
    async (signal, prompt, flags, code) => {
      const dir = tempDir()
      const session = await startTmux(['login', '--base-url', NOWHERE, ...flags], {
        env: { HOME: dir, CHAMBERCTL_CONFIG_DIR: dir },
        columns: 100,
        afterExit: TTY_MODES,
      })
      try {
        await session.waitFor(new RegExp(`^\\? ${prompt}`))
        await session.type('typed')
        await session.signal(signal)
        expect(await session.exitCode()).toBe(code)
        const rows = await session.waitFor(/^tty:-?echo$/)
        expect(rows.filter((row) => row.startsWith('tty:'))).toEqual([
          'tty:isig',
          'tty:icanon',
          'tty:echo',
        ])
        expect(rows).toContainEqual(`error: ${signal} while a prompt waited`)
      } finally {
        await session.close()
      }
    },
    TIMEOUT,
  )
})
