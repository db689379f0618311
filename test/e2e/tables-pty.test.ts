// Tables from the built binary in a real pseudo-terminal (`script`): at 60, 80 and 120 columns the
// same command shows the same columns whether the page holds 3 rows or 20, and no line on the
// screen is wider than the terminal; an `--all` table over 200,000 members prints its first rows
// while the server still holds back every later page; a later page's longer names are cut at the
// terminal's edge.
import stringWidth from 'string-width'
import { describe, expect, it } from 'vitest'
import { BIG_CHAMBER, useSandbox, useTempDirs } from '../helpers/sandbox.js'
import { Holder, startFakeApi } from '../helpers/fake-api.js'
import type { FakeRequest } from '../helpers/fake-api.js'
import { HAVE_PTY, startPty, terminalEnv } from '../helpers/pty.js'

const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-tables-')
const TIMEOUT = 30_000

// The lines the terminal shows (a spinner drawn while a slow first answer was awaited, behind
// Prism's proxy, is erased there as on any terminal).
const screenLines = (shown: string) => shown.split('\n').filter((line) => line !== '')

async function table(args: string[], columns: number) {
  const session = startPty([...args, '--no-pager'], {
    env: terminalEnv(sandbox(), tempDir()),
    columns,
  })
  const { code, screen, shown } = await session.exited
  expect(code, screen).toBe(0)
  const lines = screenLines(shown)
  for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(columns)
  return lines
}

// The page a members list asks for, and its size.
function pageOf({ path }: FakeRequest): { page: number; perPage: number } {
  const url = new URL(path, 'http://127.0.0.1')
  return {
    page: Number(url.searchParams.get('page') ?? '1'),
    perPage: Number(url.searchParams.get('per_page') ?? '20'),
  }
}

describe.skipIf(!HAVE_PTY)('tables in a pseudo-terminal', () => {
  it.each([60, 80, 120])(
    'at %i columns: the same columns with 3 rows and with 20, no line wider than the terminal',
    async (columns) => {
      for (const args of [
        ['members', 'list', BIG_CHAMBER],
        ['events', 'list', BIG_CHAMBER],
        ['chambers', 'list'],
      ]) {
        const few = await table([...args, '--per-page', '3'], columns)
        const many = await table([...args, '--per-page', '20'], columns)
        expect(few[0]!.split(/ {2,}/)).toEqual(many[0]!.split(/ {2,}/))
        expect(few.filter((line) => /^\w+_\d+ /.test(line))).toHaveLength(3)
      }
    },
    TIMEOUT,
  )
})

// A server of 200,000 members that answers the first page and holds back every later one until
// the test lets them go; then it answers each with an error, which ends the command.
async function holdingServer() {
  const holder = new Holder<string>()
  const member = (i: number) => ({
    id: `mem_${String(i).padStart(6, '0')}`,
    chamber_id: 'ch_0001',
    name: `Member Number ${i}`,
    email: `member${i}@example.com`,
    phone: '+49 30 1234567',
    membership_type: 'standard',
    status: 'active',
    joined_at: '2024-01-15T09:00:00.123Z',
  })
  const api = await startFakeApi({
    answer: async (request) => {
      const { page, perPage } = pageOf(request)
      if (page === 1) {
        const data = Array.from({ length: perPage }, (_, i) => member(i + 1))
        return { body: { data, meta: { current_page: 1, per_page: perPage, total: 200_000 } } }
      }
      await holder.hold(request.path)
      return { status: 404, body: { error: { code: 'not_found', message: 'gone' } } }
    },
  })
  return {
    baseUrl: api.baseUrl(),
    // Resolves once a later page has been asked for (and is being held back).
    whenHeld: () => holder.whenHeld(1),
    async release() {
      holder.release()
      await api.close()
    },
  }
}

describe.skipIf(!HAVE_PTY)('members list --all as a table in a pseudo-terminal', () => {
  it(
    'prints the first page while every later one is still held back by the server',
    async () => {
      const server = await holdingServer()
      const session = startPty(['members', 'list', 'ch_0001', '--all', '--no-pager'], {
        env: {
          TERM: 'xterm',
          HOME: tempDir(),
          CHAMBERCTL_CONFIG_DIR: tempDir(),
          CHAMBERCTL_BASE_URL: server.baseUrl,
          CHAMBERCTL_TOKEN: 'test-token',
        },
        columns: 100,
      })
      try {
        await server.whenHeld()
        const { match } = await session.prompts.next(/mem_000100 +Member Number 100 /)
        expect(match).toContain('mem_000100')
        expect(session.screen()).toMatch(/^id +name +email/m)
      } finally {
        await server.release()
      }
      await session.exited
    },
    TIMEOUT,
  )
})

// Two pages of members: short names on the first, long ones on the second.
function twoPageServer(long: (i: number) => string) {
  return startFakeApi({
    answer: (request) => {
      const { page, perPage } = pageOf(request)
      const data = Array.from({ length: perPage }, (_, k) => {
        const i = (page - 1) * perPage + k + 1
        return {
          id: `mem_${String(i).padStart(6, '0')}`,
          chamber_id: 'ch_0001',
          name: page === 1 ? `Member ${i}` : long(i),
          email: `member${i}@example.com`,
          status: 'active',
        }
      })
      return { body: { data, meta: { current_page: page, per_page: perPage, total: 10 } } }
    },
  })
}

describe.skipIf(!HAVE_PTY)('a later page with longer names in a pseudo-terminal', () => {
  it(
    'cuts them at the terminal edge of 80 columns, not at the first page width',
    async () => {
      const long = (i: number) => `Bulk Person ${i} of the Potsdam Chamber of Commerce`
      const server = await twoPageServer(long)
      try {
        const session = startPty(
          ['members', 'list', 'ch_0001', '--all', '--per-page', '5', '--no-pager'],
          {
            env: {
              TERM: 'xterm',
              HOME: tempDir(),
              CHAMBERCTL_CONFIG_DIR: tempDir(),
              CHAMBERCTL_BASE_URL: server.baseUrl(),
              CHAMBERCTL_TOKEN: 'test-token',
            },
            columns: 80,
          },
        )
        const { code, screen, shown } = await session.exited
        expect(code, screen).toBe(0)
        const row = screenLines(shown).find((line) => line.startsWith('mem_000007 '))
        // 80 - 10 (id) - 19 (e-mail) - 6 (status) - three gaps leave 39 cells for the name.
        expect(row).toBe(`mem_000007  ${long(7).slice(0, 38)}…  member7@example.com  active`)
      } finally {
        await server.close()
      }
    },
    TIMEOUT,
  )
})
