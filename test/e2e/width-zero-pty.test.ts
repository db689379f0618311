// A terminal that reports a width of 0 (a serial console, a pseudo-terminal nobody sized): the
// table is fitted to COLUMNS, else to 80 columns, not to 0 (which left only the id column).
import stringWidth from 'string-width'
import { describe, expect, it } from 'vitest'
import { NOW, useSandbox, useTempDirs } from '../helpers/sandbox.js'
import { startGate } from '../helpers/gate.js'
import { HAVE_PTY, spinnerShown, startPty, terminalEnv } from '../helpers/pty.js'

// Each list is held back until it has waited longer than a list waits before its spinner turns
// (ora's, which counted the lines it drew by dividing by the width and, at 0, drew and cleared
// for ever): until a run on a terminal of the usual size shows its spinner.
const sandbox = useSandbox({ now: () => NOW })
const tempDir = useTempDirs('chamberctl-width-zero-')

async function listAtWidthZero(env: NodeJS.ProcessEnv): Promise<string[]> {
  const gate = await startGate(sandbox().sandbox, (_method, url) => !url.endsWith('/auth/token'))
  try {
    const through = {
      ...terminalEnv(sandbox(), tempDir()),
      CHAMBERCTL_BASE_URL: gate.baseUrl('v2'),
    }
    const session = startPty(['chambers', 'list', '--no-color', '--no-pager'], {
      env: { ...through, ...env },
      columns: 0,
      rows: 0,
    })
    await gate.whenHeld(1)
    const twin = await spinnerShown(through)
    gate.open()
    await twin.exited
    const { code, screen } = await session.exited
    expect(code, screen).toBe(0)
    return screen.split(/\r?\n/).filter(Boolean)
  } finally {
    gate.open()
    await gate.close()
  }
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
