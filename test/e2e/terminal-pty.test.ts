// The built binary as a person at a terminal sees it: a bulk run in a real pseudo-terminal (the
// bar is drawn while rows are sent; the last screen holds the failures and the summary), and the
// prompts of `chambers create` in a 60-column tmux window, read from the rendered screen.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { useSandbox, useTempDirs } from '../helpers/sandbox.js'
import { isCreate, startGate } from '../helpers/gate.js'
import { HAVE_PTY, startPty, terminalEnv } from '../helpers/pty.js'
import { SandboxReader } from '../helpers/session.js'
import { HAVE_TMUX, startTmux } from '../helpers/tmux.js'

const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-terminal-')
const TIMEOUT = 40_000

// 400 rows: two with a bad e-mail (lines 11 and 301 of the file, the header being line 1).
function membersCsv(dir: string): string {
  const rows = Array.from({ length: 400 }, (_, i) => {
    const email = i === 9 || i === 299 ? `broken-${i}` : `pty-${i}@example.com`
    return `Pty Member ${i},${email},standard`
  })
  const file = path.join(dir, 'members.csv')
  writeFileSync(file, `name,email,membership_type\n${rows.join('\n')}\n`)
  return file
}

describe.skipIf(!HAVE_PTY)('members add --from-file in a pseudo-terminal', () => {
  it(
    'draws the bar while sending, prints the failed rows as they settle, leaves the last frame and the summary',
    async () => {
      const chamber = await new SandboxReader(sandbox().sandbox).emptyChamber('Pty Bulk')
      // The creates are held back after the first ten, so the run is watched mid-way whatever
      // the speed of the machine.
      const gate = await startGate(sandbox().sandbox, isCreate)
      const session = startPty(['members', 'add', chamber, '--from-file', membersCsv(tempDir())], {
        env: { ...terminalEnv(sandbox(), tempDir()), CHAMBERCTL_BASE_URL: gate.baseUrl('v2') },
        columns: 80,
        timeoutMs: 30_000,
      })
      try {
        for (let sent = 0; sent < 10; sent++) {
          await gate.whenHeld(1)
          gate.release(1)
        }
        // A frame with rows still to send, seen while the command runs.
        const { match } = await session.prompts.next(/(\d+)\/398 rows \| [\d,]+\/s \| ETA \d+s/)
        expect(Number(/(\d+)\//.exec(match)![1])).toBeLessThan(398)
      } finally {
        gate.open()
      }
      const { code, screen } = await session.exited
      await gate.close()
      expect(code, screen).toBe(1)
      const last = screen.split(/\r?\n/).filter(Boolean).slice(-5)
      // The failures are printed as they settle, a table that streams (the bar taken off its line
      // before each and drawn again below); the reason before the e-mail. The last frame stays.
      expect(last[0]).toMatch(/line +status +reason +email$/)
      expect(last[1]).toMatch(/^11 +invalid +email must be a valid e-mail address +broken-9$/)
      expect(last[2]).toMatch(/301 +invalid +email must be a valid e-mail address +broken-299$/)
      expect(last[3]).toMatch(/█{24} 398\/398 rows \| [\d,]+\/s \| ETA 0s$/)
      expect(last[4]).toMatch(/^398 created, 2 invalid in \d+\.\d s$/)
    },
    TIMEOUT,
  )
})

describe.skipIf(!HAVE_TMUX)('chambers create at 60 columns (tmux)', () => {
  it(
    'fits its prompts to the terminal, ranks the hq search, and leaves no stale lines',
    async () => {
      const session = await startTmux(['chambers', 'create'], {
        env: terminalEnv(sandbox(), tempDir()),
        columns: 60,
      })
      try {
        await session.waitFor(/^\? Name/)
        await session.type('Narrow Chamber')
        await session.key('Enter')
        await session.waitFor(/❯ hq \(headquarters\)/)
        await session.key('Down')
        await session.waitFor(/❯ subsidiary/)
        await session.key('Enter')
        await session.waitFor(/Vienna Economic Chamber \(ch_0004\)/)
        // A term long enough to wrap the prompt's line at 60 columns (not at 80): each redraw must
        // clear both rows, or the old ones stay on the screen.
        await session.type('Chamber of Industry and')
        await session.waitFor(/^❯ Munich Chamber of Industry and Commerce/)
        await session.key('C-u')
        // "Hamb" is also inside every "Chamber": the word start ranks Hamburg first.
        await session.type('Hamb')
        await session.waitFor(/^❯ Hamburg Chamber of Commerce \(ch_0002\)$/)
        await session.key('Enter')
        await session.waitFor(/^\? Street/)
        await session.key('Enter')
        await session.waitFor(/^\? City/)
        await session.type('Erfurt')
        await session.key('Enter')
        await session.waitFor(/^\? Postal code/)
        await session.key('Enter')
        await session.waitFor(/^\? Country/)
        await session.key('Enter')
        await session.waitFor(/^\? Create this chamber\?/)
        await session.type('y')
        await session.key('Enter')
        expect(await session.exitCode()).toBe(0)
        const rows = await session.screen()
        // Each answered question is one line, and the choices it offered are gone.
        expect(rows.filter((row) => row.startsWith('✔ Headquarters'))).toHaveLength(1)
        expect(rows.join('\n')).not.toMatch(
          /Vienna Economic Chamber|Munich Chamber|Chamber of In|^\? Headquarters/m,
        )
        expect(rows).toContainEqual(expect.stringMatching(/^hq_id: +ch_0002$/))
        expect(rows).toContainEqual(expect.stringMatching(/^ {2}city: +Erfurt$/))
      } finally {
        await session.close()
      }
    },
    TIMEOUT,
  )
})
