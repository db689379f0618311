// `chambers create` as a person at a terminal runs it: the built binary in a real pseudo-terminal
// (util-linux `script`), credentials from the environment, keystrokes typed as each prompt shows.
import { describe, expect, it } from 'vitest'
import { useSandbox, useTempDirs } from '../helpers/sandbox.js'
import { HAVE_PTY, startPty, terminalEnv } from '../helpers/pty.js'
import { KEY, SandboxReader } from '../helpers/session.js'

const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-pty-')
const TIMEOUT = 30_000

function chamberPosts(): number {
  return sandbox().requests.filter((r) => r.method === 'POST' && r.path === '/v2/chambers').length
}

describe.skipIf(!HAVE_PTY)('chambers create in a pseudo-terminal', () => {
  it(
    'prompts for every value, searches the hqs, confirms, and creates the chamber',
    async () => {
      const before = chamberPosts()
      const { prompts, exited } = startPty(['chambers', 'create'], {
        env: terminalEnv(sandbox(), tempDir()),
      })
      await prompts.answer(/\? Name/, `Pty Chamber${KEY.enter}`)
      await prompts.answer(/❯ hq \(headquarters\)/, KEY.down)
      await prompts.answer(/❯ subsidiary \(of an hq\)/, KEY.enter)
      await prompts.answer(/Vienna Economic Chamber \(ch_0004\)/, 'Munich')
      await prompts.answer(/❯ Munich Chamber of Industry and Commerce \(ch_0003\)/, KEY.enter)
      await prompts.answer(/\? Street/, KEY.enter)
      await prompts.answer(/\? City/, `Erfurt${KEY.enter}`)
      await prompts.answer(/\? Postal code/, `09084${KEY.enter}`)
      await prompts.answer(/\? Country/, `DE${KEY.enter}`)
      const summary = await prompts.next(/\? Create this chamber\?/)
      expect(summary.before).toMatch(/hq: {6}Munich Chamber of Industry and Commerce \(ch_0003\)/)
      expect(summary.before).toMatch(/address: city=Erfurt, postal_code=09084, country=DE/)
      await prompts.answer(/\(Y\/n\)/, `y${KEY.enter}`)

      const { code, screen, shown } = await exited
      expect(code, screen).toBe(0)
      const id = /Created chamber (ch_\d+) \(Pty Chamber\)/.exec(screen)?.[1]
      expect(id, screen).toBeDefined()
      // The record, as key: value lines on the screen as it is left: a spinner drawn while the
      // create waited more than a second (a loaded machine) was erased there, where the text
      // read above keeps its frames before the record's first line.
      expect(shown).toMatch(new RegExp(`^id: +${id}$`, 'm'))
      expect(shown).toMatch(/^name: +Pty Chamber$/m)
      expect(shown).toMatch(/^hq_id: +ch_0003$/m)
      expect(shown).toMatch(/^ {2}city: +Erfurt$/m)
      expect(chamberPosts() - before).toBe(1)
      expect(await new SandboxReader(sandbox().sandbox).chamber(id!)).toMatchObject({
        name: 'Pty Chamber',
        type: 'subsidiary',
        hq_id: 'ch_0003',
        address: { city: 'Erfurt', postal_code: '09084', country: 'DE' },
      })
    },
    TIMEOUT,
  )

  it(
    'exits 130 on Ctrl-C at a prompt, creating nothing',
    async () => {
      const before = chamberPosts()
      const { prompts, exited } = startPty(['chambers', 'create'], {
        env: terminalEnv(sandbox(), tempDir()),
      })
      await prompts.answer(/\? Name/, 'Never Sent')
      await prompts.answer(/Never Sent/, KEY.ctrlC)
      const { code, screen } = await exited
      expect(code, screen).toBe(130)
      expect(screen).toMatch(/error: interrupted\s*$/)
      expect(chamberPosts()).toBe(before)
    },
    TIMEOUT,
  )
})
