// Prompts that cannot lie, in a real pseudo-terminal (util-linux `script`): an answer typed fast
// or pasted, its text and Enter in one write, is the answer sent, read back from the server; and
// a command given every required value by flags asks nothing at all.
import { describe, expect, it } from 'vitest'
import { useSandbox, useTempDirs } from '../helpers/sandbox.js'
import { HAVE_PTY, startPty, terminalEnv } from '../helpers/pty.js'
import type { PtySession } from '../helpers/pty.js'
import { KEY, SandboxReader } from '../helpers/session.js'

const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-paste-')
const TIMEOUT = 30_000
// The membership types the demo chamber ch_0001's members have.
const TYPES = ['standard', 'premium', 'corporate', 'honorary', 'student']
const MEMBERS = '/v2/chambers/ch_0001/members'

const posts = (path: string) =>
  sandbox().requests.filter((r) => r.method === 'POST' && r.path === path).length
const reader = () => new SandboxReader(sandbox().sandbox)

function run(args: string[]): PtySession {
  return startPty(args, { env: terminalEnv(sandbox(), tempDir()) })
}

type Burst = 'in one write' | 'a write a character'

// Types `text` and Enter: all in one write (a paste), or each character in a write of its own
// without waiting (typed fast).
function type(session: PtySession, text: string, burst: Burst): void {
  if (burst === 'in one write') return session.write(`${text}${KEY.enter}`)
  for (const char of text) session.write(char)
  session.write(KEY.enter)
}

describe.skipIf(!HAVE_PTY)('an answer typed fast or pasted is the answer sent', () => {
  it.each<Burst>(['in one write', 'a write a character'])(
    'members add: a membership type other than the highlighted one, %s',
    async (burst) => {
      const email = `paste-${burst.replace(/ /g, '-')}@example.com`
      const before = posts(MEMBERS)
      const session = run(['members', 'add', 'ch_0001', '--name', 'Paste', '--email', email, '-y'])
      await session.prompts.next(/\? Membership type/)
      // The list as loaded; the answer is one of its types, not the highlighted one.
      const highlighted = (await session.prompts.next(/❯ [a-z]+/)).match.slice(2)
      const wanted = TYPES.find((t) => t !== highlighted)!
      type(session, wanted, burst)

      const { code, screen } = await session.exited
      expect(code, screen).toBe(0)
      expect(screen).toMatch(new RegExp(`✔ Membership type .* ${wanted}\\r?$`, 'm'))
      expect(posts(MEMBERS) - before).toBe(1)
      const sent = (await reader().members('ch_0001')).filter((m) => m.email === email)
      expect(sent).toEqual([expect.objectContaining({ name: 'Paste', membership_type: wanted })])
    },
    TIMEOUT,
  )

  it(
    'members add: a new membership type pasted is created as typed',
    async () => {
      const email = 'new-type@example.com'
      const session = run(['members', 'add', 'ch_0001', '--name', 'New', '--email', email, '-y'])
      await session.prompts.next(/❯ [a-z]+/)
      type(session, 'platinum', 'in one write')
      const { code, screen } = await session.exited
      expect(code, screen).toBe(0)
      const sent = (await reader().members('ch_0001')).filter((m) => m.email === email)
      expect(sent).toEqual([expect.objectContaining({ membership_type: 'platinum' })])
    },
    TIMEOUT,
  )

  it.each([
    ['an hq id', 'ch_0003', 'Munich Chamber of Industry and Commerce'],
    ['the start of an hq name', 'Hamburg', 'Hamburg Chamber of Commerce'],
  ])(
    'chambers create: the type, then %s, pasted: the hq sent, shown by name and id',
    async (_, typed, hqName) => {
      const hqId = typed.startsWith('ch_') ? typed : 'ch_0002'
      const name = `Pasted ${typed}`
      const before = posts('/v2/chambers')
      const session = run(['chambers', 'create', '--name', name, '--address-field', 'city=Jena'])
      await session.prompts.next(/❯ hq \(headquarters\)/)
      type(session, 'subsidiary', 'in one write')
      // The hqs as loaded, the first one highlighted: not the one pasted.
      const { match } = await session.prompts.next(/❯ .* \(ch_\d+\)/)
      expect(match).not.toContain(hqId)
      type(session, typed, 'in one write')
      const summary = await session.prompts.next(/\? Create this chamber\?/)
      expect(summary.before).toContain(`✔ Headquarters (type to filter, or type an id) ${hqName}`)
      expect(summary.before).toMatch(new RegExp(`^ {2}hq: {6}${hqName} \\(${hqId}\\)\\r?$`, 'm'))
      session.write(`y${KEY.enter}`)

      const { code, screen } = await session.exited
      expect(code, screen).toBe(0)
      expect(screen).toContain('✔ Type subsidiary (of an hq)')
      expect(posts('/v2/chambers') - before).toBe(1)
      const sent = (await reader().chambers()).filter((c) => c.name === name)
      expect(sent).toEqual([expect.objectContaining({ type: 'subsidiary', hq_id: hqId })])
    },
    TIMEOUT,
  )
})

describe.skipIf(!HAVE_PTY)('every required value from flags: no question at all', () => {
  it.each([
    [
      'chambers create',
      ['chambers', 'create', '--name', 'All Flags', '--type', 'hq', '--address-field', 'city=Gera'],
      '/v2/chambers',
    ],
    [
      'members add',
      ['members', 'add', 'ch_0002', '--name', 'All Flags', '--email', 'all-flags@example.com'],
      '/v2/chambers/ch_0002/members',
    ],
  ])(
    '%s sends the record without asking for a confirmation',
    async (_, args, path) => {
      const before = posts(path)
      const extra = args[0] === 'members' ? ['--membership-type', 'standard'] : []
      const { code, screen } = await run([...args, ...extra]).exited
      expect(code, screen).toBe(0)
      expect(screen).not.toMatch(/\?|About to/)
      expect(posts(path) - before).toBe(1)
      const records =
        args[0] === 'members' ? await reader().members('ch_0002') : await reader().chambers()
      expect(records.filter((r) => r.name === 'All Flags')).toHaveLength(1)
    },
    TIMEOUT,
  )
})
