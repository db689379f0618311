// --sandbox and CHAMBERCTL_SANDBOX: an embedded sandbox, no login, data kept in the config
// directory's SQLite database sandbox.db between runs.
import { existsSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { BIG_CHAMBER, CHAMBER_IDS, useTempDirs } from '../helpers/sandbox.js'
import { modeOf } from '../helpers/config-files.js'
import { lines, tsvColumn } from '../helpers/output.js'
import { runMain } from '../helpers/run-main.js'

const tempDir = useTempDirs('chamberctl-sandbox-mode-')

function run(args: string[], dir: string, env: NodeJS.ProcessEnv = {}) {
  return runMain(args, { env: { CHAMBERCTL_CONFIG_DIR: dir, ...env } })
}

describe('--sandbox', () => {
  it('lists the demo chambers without a login, keeping its data in sandbox.db', async () => {
    const dir = path.join(tempDir(), 'config')
    const { code, stdout, stderr } = await run(['chambers', 'list', '--sandbox'], dir)
    expect(code, stderr).toBe(0)
    expect(tsvColumn(stdout)).toEqual(CHAMBER_IDS)
    const file = path.join(dir, 'sandbox.db')
    expect(existsSync(file)).toBe(true)
    if (process.platform !== 'win32') {
      expect(modeOf(dir)).toBe(0o700)
      expect(modeOf(file)).toBe(0o600)
    }
    // No profile was written for it.
    expect(existsSync(path.join(dir, 'config.json'))).toBe(false)
  })

  it('keeps a member added in one run for the next', async () => {
    const dir = tempDir()
    const member = ['--name', 'Ada', '--email', 'ada@runs.example.com', '--membership-type', 'x']
    const added = await run(['members', 'add', 'ch_0002', ...member, '--sandbox', '--json'], dir)
    expect(added.code, added.stderr).toBe(0)
    const { id } = JSON.parse(added.stdout) as { id: string }
    const listed = await run(['members', 'list', 'ch_0002', '--all', '--sandbox'], dir)
    expect(tsvColumn(listed.stdout)).toContain(id)
  })

  it('serves v2 reads: events, filters, --include, --all', async () => {
    const dir = tempDir()
    const events = await run(['events', 'list', BIG_CHAMBER, '--sandbox', '--status', 'past'], dir)
    expect(events.code).toBe(0)
    expect(tsvColumn(events.stdout)).toEqual(['ev_0002', 'ev_0005', 'ev_0007'])
    const members = await run(['members', 'list', BIG_CHAMBER, '--sandbox', '--all'], dir)
    expect(lines(members.stdout)).toHaveLength(260)
    const hqs = await run(['chambers', 'list', '--sandbox', '--type', 'hq'], dir)
    expect(tsvColumn(hqs.stdout)).toEqual(CHAMBER_IDS.slice(0, 4))
  })

  it('works with CHAMBERCTL_SANDBOX=v2 and ignores credentials in the environment', async () => {
    const { code, stdout } = await run(['chambers', 'list'], tempDir(), {
      CHAMBERCTL_SANDBOX: 'v2',
      CHAMBERCTL_BASE_URL: 'http://127.0.0.1:1/v2',
      CHAMBERCTL_TOKEN: 'ignored',
    })
    expect(code).toBe(0)
    expect(tsvColumn(stdout)).toEqual(CHAMBER_IDS)
  })

  it('with CHAMBERCTL_SANDBOX=v1 refuses events list (exit 2) and still lists chambers', async () => {
    const dir = tempDir()
    const events = await run(['events', 'list', BIG_CHAMBER], dir, { CHAMBERCTL_SANDBOX: 'v1' })
    expect(events.code).toBe(2)
    // The setting to change, not the sandbox's port of the moment.
    expect(events.stderr).toBe(
      'error: events list needs API v2, but the sandbox runs API v1 (CHAMBERCTL_SANDBOX=v1); use CHAMBERCTL_SANDBOX=v2\n',
    )
    const chambers = await run(['chambers', 'list', '--sandbox'], dir, { CHAMBERCTL_SANDBOX: 'v1' })
    expect(chambers.code).toBe(0)
    expect(tsvColumn(chambers.stdout)).toEqual(CHAMBER_IDS)
  })

  it('refuses a bad CHAMBERCTL_SANDBOX, --base-url with it, and login', async () => {
    const dir = tempDir()
    expect((await run(['chambers', 'list'], dir, { CHAMBERCTL_SANDBOX: 'v3' })).code).toBe(2)
    const both = await run(['chambers', 'list', '--sandbox', '--base-url', 'http://x/v2'], dir)
    expect(both.code).toBe(2)
    const login = await run(['login', '--sandbox'], dir)
    expect(login.code).toBe(2)
    expect(login.stderr).toMatch(/needs no login/)
  })

  it('answers auth status and auth token', async () => {
    const dir = tempDir()
    const status = await run(['auth', 'status', '--sandbox', '--json'], dir)
    expect(status.code).toBe(0)
    // One record per profile: there are none, and the sandbox's credentials are no profile's.
    expect(JSON.parse(status.stdout)).toEqual([])
    expect(status.stderr).toBe('Checked the sandbox (API v2): can authenticate\n')
    const token = await run(['auth', 'token', '--sandbox'], dir)
    expect(token.code).toBe(0)
    expect(token.stdout).toMatch(/^sbx_v2_\S+\n$/)
  })

  it('reports an unknown chamber with exit 3', async () => {
    const { code, stderr } = await run(['chambers', 'get', 'ch_0404', '--sandbox'], tempDir())
    expect(code).toBe(3)
    expect(stderr).toBe('error: chamber ch_0404 not found (HTTP 404)\n')
  })
  it('knows an earlier bulk run across processes, though each listens on a new port', async () => {
    const dir = tempDir()
    const rows = path.join(dir, 'rows.csv')
    writeFileSync(
      rows,
      'name,email,membership_type\n' +
        'One,one@rerun.example.com,standard\n' +
        'Two,two@rerun.example.com,standard\n' +
        'Again,two@rerun.example.com,standard\n',
    )
    const add = ['members', 'add', 'ch_0002', '--from-file', rows, '--sandbox', '-o', 'ndjson']
    const first = await run(add, dir)
    expect(first.code).toBe(1)
    expect(first.stderr).toContain('2 created, 1 failed')
    // The same input again, in a process whose sandbox listens on another port: refused.
    const again = await run(add, dir)
    expect(again.code).toBe(2)
    expect(again.stderr).toContain(
      'an earlier run of this input against chamber ch_0002 at the embedded sandbox (v2)',
    )
    const listed = await run(['members', 'list', 'ch_0002', '--all', '--sandbox', '--json'], dir)
    const emails = (JSON.parse(listed.stdout) as { email: string }[]).map((m) => m.email)
    expect(emails.filter((email) => email.endsWith('@rerun.example.com')).sort()).toEqual([
      'one@rerun.example.com',
      'two@rerun.example.com',
    ])
  })
})
