// --sandbox and CHAMBERCTL_SANDBOX: an embedded sandbox, no login, data kept in the config
// directory's sandbox.json between runs.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { BIG_CHAMBER, CHAMBER_IDS, lines, modeOf, tsvColumn, useTempDirs } from '../helpers/cli.js'
import { runMain } from '../helpers/cli.js'

const tempDir = useTempDirs('chamberctl-sandbox-mode-')

function run(args: string[], dir: string, env: NodeJS.ProcessEnv = {}) {
  return runMain(args, { env: { CHAMBERCTL_CONFIG_DIR: dir, ...env } })
}

describe('--sandbox', () => {
  it('lists the demo chambers without a login, keeping its data in sandbox.json', async () => {
    const dir = path.join(tempDir(), 'config')
    const { code, stdout, stderr } = await run(['chambers', 'list', '--sandbox'], dir)
    expect(code, stderr).toBe(0)
    expect(tsvColumn(stdout)).toEqual(CHAMBER_IDS)
    const file = path.join(dir, 'sandbox.json')
    expect(existsSync(file)).toBe(true)
    if (process.platform !== 'win32') {
      expect(modeOf(dir)).toBe(0o700)
      expect(modeOf(file)).toBe(0o600)
    }
    // No profile was written for it.
    expect(existsSync(path.join(dir, 'config.json'))).toBe(false)
  })

  it('reads the data file on a second run', async () => {
    const dir = tempDir()
    expect((await run(['chambers', 'list', '--sandbox'], dir)).code).toBe(0)
    const file = path.join(dir, 'sandbox.json')
    const data = JSON.parse(readFileSync(file, 'utf8')) as { chambers: { name: string }[] }
    data.chambers[0]!.name = 'Edited between runs'
    writeFileSync(file, JSON.stringify(data))
    const { code, stdout } = await run(['chambers', 'get', BIG_CHAMBER, '--sandbox', '--json'], dir)
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toMatchObject({ id: BIG_CHAMBER, name: 'Edited between runs' })
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
    expect(events.stderr).toMatch(/^error: events list needs API v2, .* is API v1/)
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
    const status = await run(['auth', 'status', '--sandbox'], dir)
    expect(status.code).toBe(0)
    expect(status.stdout).toMatch(/^\(sandbox\)\ttrue\t/)
    const token = await run(['auth', 'token', '--sandbox'], dir)
    expect(token.code).toBe(0)
    expect(token.stdout).toMatch(/^sbx_v2_\S+\n$/)
  })

  it('reports an unknown chamber with exit 3', async () => {
    const { code, stderr } = await run(['chambers', 'get', 'ch_0404', '--sandbox'], tempDir())
    expect(code).toBe(3)
    expect(stderr).toBe('error: chamber ch_0404 not found (HTTP 404)\n')
  })
})
