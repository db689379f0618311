// A terminal that reports a width of 0 (a serial console, a pseudo-terminal nobody sized): the
// table is fitted to COLUMNS, else to 80 columns, not to 0 (which left only the id column).
import stringWidth from 'string-width'
import { describe, expect, it } from 'vitest'
import { NOW, useSandbox, useTempDirs } from '../helpers/cli.js'
import { HAVE_PTY, startPty, terminalEnv } from '../helpers/pty.js'

// Each answer takes longer than a request waits before its spinner turns (ora's, which counted
// the lines it drew by dividing by the width and, at 0, drew and cleared for ever).
const sandbox = useSandbox({ now: () => NOW, latencyMs: 1_100 })
const tempDir = useTempDirs('chamberctl-width-zero-')

async function listAtWidthZero(env: NodeJS.ProcessEnv): Promise<string[]> {
  const session = startPty(['chambers', 'list', '--no-color', '--no-pager'], {
    env: { ...terminalEnv(sandbox(), tempDir()), ...env },
    columns: 0,
    rows: 0,
  })
  const { code, screen } = await session.exited
  expect(code, screen).toBe(0)
  return screen.split(/\r?\n/).filter(Boolean)
}

describe.skipIf(!HAVE_PTY)('chambers list on a terminal 0 columns wide', () => {
  it.each([
    ['COLUMNS=70', { COLUMNS: '70' }, 70],
    ['no COLUMNS', {}, 80],
    ['COLUMNS=0', { COLUMNS: '0' }, 80],
  ])(
    '%s: the table fitted to COLUMNS, else to 80 columns',
    async (_, env, width) => {
      // The table's lines: its header and a row per chamber (notes are not measured here).
      const shown = (await listAtWidthZero(env)).filter((line) => /^(id|ch_)/.test(line))
      expect(shown.length).toBeGreaterThan(1)
      expect(shown[0]).toMatch(/^id +name +type\b/)
      for (const line of shown) expect(stringWidth(line), line).toBeLessThanOrEqual(width)
      // The widest line uses the room there is: the table was fitted to this width, not to less.
      expect(Math.max(...shown.map((line) => stringWidth(line)))).toBeGreaterThan(width - 10)
    },
    30_000,
  )
})
