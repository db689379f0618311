// Accessible mode with the built binary in a real pseudo-terminal: prompts answered by typing a
// number and Enter in one burst, as fast as a person with a screen reader types them (no arrow
// key anywhere), a search answered with a typed value, and a list as key: value blocks.
import { describe, expect, it } from 'vitest'
import { useSandbox, useTempDirs } from '../helpers/sandbox.js'
import { HAVE_PTY, startPty, terminalEnv } from '../helpers/pty.js'
import { KEY, SandboxReader } from '../helpers/session.js'

const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-accessible-')
const TIMEOUT = 30_000

describe.skipIf(!HAVE_PTY)('accessible mode on a terminal', () => {
  it(
    'chambers create: numbered choices typed as numbers, an hq found by a typed name',
    async () => {
      const { prompts, write, exited } = startPty(['chambers', 'create', '--accessible'], {
        env: terminalEnv(sandbox(), tempDir()),
      })
      await prompts.answer(/\? Name/, `Typed Chamber${KEY.enter}`)
      const type = await prompts.next(/\? Type a number from 1 to 2/)
      expect(type.before).toMatch(/Type:\r?\n {2}1\. hq \(headquarters\)\r?\n {2}2\. subsidiary/)
      // A number out of range is refused where it was typed, then a right one taken.
      write(`7${KEY.enter}`)
      await prompts.answer(/> a number from 1 to 2/, `${KEY.clearLine}2${KEY.enter}`)
      await prompts.answer(/\? Headquarters/, `Munich${KEY.enter}`)
      const results = await prompts.next(
        /\? Type a number from 1 to \d+, or nothing to search again/,
      )
      const number = / {2}(\d+)\. Munich Chamber of Industry and Commerce \(ch_0003\)/.exec(
        results.before,
      )?.[1]
      expect(number, results.before).toBeDefined()
      write(`${number}${KEY.enter}`)
      await prompts.answer(/\? Street/, KEY.enter)
      await prompts.answer(/\? City/, `Erfurt${KEY.enter}`)
      await prompts.answer(/\? Postal code/, KEY.enter)
      await prompts.answer(/\? Country/, KEY.enter)
      await prompts.answer(/\(Y\/n\)/, `y${KEY.enter}`)
      const { code, screen } = await exited
      expect(code, screen).toBe(0)
      // No list that an arrow moves through was drawn.
      expect(screen).not.toContain('❯')
      const id = /Created chamber (ch_\d+) \(Typed Chamber\)/.exec(screen)?.[1]
      expect(id, screen).toBeDefined()
      expect(await new SandboxReader(sandbox().sandbox).chamber(id!)).toMatchObject({
        type: 'subsidiary',
        hq_id: 'ch_0003',
        address: { city: 'Erfurt' },
      })
    },
    TIMEOUT,
  )

  it(
    'an id typed exactly at a search is taken as typed',
    async () => {
      const { prompts, exited } = startPty(
        ['chambers', 'create', '--type', 'subsidiary', '--name', 'By Id', '--yes'],
        { env: { ...terminalEnv(sandbox(), tempDir()), CHAMBERCTL_ACCESSIBLE: '1' } },
      )
      await prompts.answer(/\? Headquarters/, `ch_0003${KEY.enter}`)
      await prompts.answer(/\? City/, `Jena${KEY.enter}`)
      const { code, screen } = await exited
      expect(code, screen).toBe(0)
      expect(screen).not.toMatch(/Type a number/)
      const id = /Created chamber (ch_\d+) \(By Id\)/.exec(screen)?.[1]
      expect(await new SandboxReader(sandbox().sandbox).chamber(id!)).toMatchObject({
        hq_id: 'ch_0003',
      })
    },
    TIMEOUT,
  )

  it(
    'a list is key: value blocks, a blank line between records',
    async () => {
      const { exited } = startPty(['chambers', 'list', '--per-page', '2', '--no-pager'], {
        env: { ...terminalEnv(sandbox(), tempDir()), CHAMBERCTL_ACCESSIBLE: '1' },
        columns: 60,
      })
      const { code, screen } = await exited
      expect(code, screen).toBe(0)
      expect(screen).toMatch(/^id: ch_0001\r?\nname: .+\r?\n[^]*?\r?\n\r?\nid: ch_0002\r?\n/m)
      // No header row of a table.
      expect(screen).not.toMatch(/^id +name/m)
    },
    TIMEOUT,
  )
})
