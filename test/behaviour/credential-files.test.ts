// The config directory and its files as ssh keeps ~/.ssh (contract §1): a directory of another
// user, or one others can write to, is refused (exit 1, the path and the fix); no file is
// written through a symbolic link; and the smaller holes of credentials: a token lifetime past
// any date, client credentials in the environment without a base URL, a file where the journals
// directory should be.
import {
  chmodSync,
  chownSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runMain, useBareCommands } from '../helpers/run-main.js'
import { useTempDirs } from '../helpers/sandbox.js'
import { useFakeApi } from '../helpers/fake-api.js'

const POSIX = process.platform !== 'win32'
const ROOT = process.getuid?.() === 0
const tempDir = useTempDirs('chamberctl-files-')

describe('a token lifetime past any date', () => {
  const api = useFakeApi({
    token: { access_token: 'forever', expires_in: 1e16 },
    answer: () => ({ body: { data: [] } }),
  })
  const { runBare } = useBareCommands()

  it('is clamped: login and auth status work', async () => {
    const login = await runBare(['login', '--base-url', api().baseUrl(), '--client-id', 'c'], {
      env: { CHAMBERCTL_CLIENT_SECRET: 's' },
    })
    expect(login.code, login.stderr).toBe(0)
    expect(login.stderr).toMatch(/token expires: \d{4}-\d\d-\d\dT/)
    const status = await runBare(['auth', 'status', '--json'])
    expect(status.code, status.stderr).toBe(0)
    const [record] = JSON.parse(status.stdout) as { expires_at: string }[]
    const days = (Date.parse(record!.expires_at) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(29)
    expect(days).toBeLessThanOrEqual(30)
  })
})

describe('client credentials in the environment without a base URL', () => {
  it('name the base URL that is missing', async () => {
    const { code, stderr } = await runMain(['chambers', 'list'], {
      env: {
        CHAMBERCTL_CONFIG_DIR: tempDir(),
        CHAMBERCTL_CLIENT_ID: 'c',
        CHAMBERCTL_CLIENT_SECRET: 's',
      },
    })
    expect(code).toBe(4)
    expect(stderr).toBe(
      'error: no base URL: CHAMBERCTL_CLIENT_ID and CHAMBERCTL_CLIENT_SECRET are set, but not CHAMBERCTL_BASE_URL; set it (or --base-url), or run `chamberctl login`\n',
    )
  })
})

describe.runIf(POSIX)('the config directory', () => {
  const loginIn = (dir: string) =>
    runMain(['login', '--base-url', 'http://127.0.0.1:9/v2', '--client-id', 'c'], {
      env: { CHAMBERCTL_CONFIG_DIR: dir, CHAMBERCTL_CLIENT_SECRET: 'the-secret' },
    })

  // The case of the issue: someone else's directory, its config.json a link to a file of theirs.
  it.runIf(ROOT)(
    'of another user is refused, and nothing is written through its link',
    async () => {
      const theirs = path.join(tempDir(), 'theirs.json')
      writeFileSync(theirs, '{}', { mode: 0o644 })
      const dir = path.join(tempDir(), 'config')
      mkdirSync(dir, { mode: 0o700 })
      symlinkSync(theirs, path.join(dir, 'config.json'))
      chownSync(dir, 65534, 65534)
      chownSync(theirs, 65534, 65534)
      const { code, stderr } = await loginIn(dir)
      expect(code).toBe(1)
      expect(stderr).toBe(
        `error: refusing the config directory ${dir}: it belongs to uid 65534, not to you (uid 0); use a directory of your own (set CHAMBERCTL_CONFIG_DIR), or have it given to you (chown)\n`,
      )
      expect(readFileSync(theirs, 'utf8')).toBe('{}')
      expect(statSync(theirs).mode & 0o777).toBe(0o644)
    },
  )

  it('that others can write to is refused, naming the fix', async () => {
    const dir = path.join(tempDir(), 'config')
    mkdirSync(dir)
    chmodSync(dir, 0o777)
    const { code, stderr } = await loginIn(dir)
    expect(code).toBe(1)
    expect(stderr).toBe(
      `error: refusing the config directory ${dir}: others can write to it (mode 0777); run \`chmod 700 ${dir}\`\n`,
    )
  })

  it('of the user’s own with config.json a link: login refuses to write through it', async () => {
    const target = path.join(tempDir(), 'elsewhere.json')
    writeFileSync(target, '{}', { mode: 0o644 })
    const dir = path.join(tempDir(), 'config')
    mkdirSync(dir, { mode: 0o700 })
    const file = path.join(dir, 'config.json')
    symlinkSync(target, file)
    const server = await import('../helpers/fake-api.js').then((m) => m.startTokenServer())
    try {
      const { code, stderr } = await runMain(
        ['login', '--base-url', server.baseUrl(), '--client-id', 'c', '--insecure-storage'],
        { env: { CHAMBERCTL_CONFIG_DIR: dir, CHAMBERCTL_CLIENT_SECRET: 'the-secret' } },
      )
      expect(code).toBe(1)
      expect(stderr).toBe(
        `error: refusing to write ${file}: it is a symbolic link, and chamberctl writes no file through one; replace it with a regular file\n`,
      )
    } finally {
      await server.close()
    }
    expect(readFileSync(target, 'utf8')).toBe('{}')
    expect(statSync(target).mode & 0o777).toBe(0o644)
  })

  it('with a file where the journals directory should be: one line, the path and the fix', async () => {
    const dir = tempDir()
    writeFileSync(path.join(dir, 'journals'), '')
    const fixture = path.join(tempDir(), 'fx.json')
    writeFileSync(
      fixture,
      JSON.stringify({ chambers: [{ key: 'a', name: 'A', type: 'hq', address: { city: 'B' } }] }),
    )
    const { code, stderr } = await runMain(['seed', fixture, '--sandbox', '--json'], {
      env: { CHAMBERCTL_CONFIG_DIR: dir },
    })
    expect(code, stderr).toBe(1)
    const journals = path.join(dir, 'journals')
    expect(stderr).toContain(
      `"message":"${journals} is a file, where chamberctl keeps the journals of bulk runs; move or remove it, then run the command again"`,
    )
    expect(stderr).not.toContain('"code":"internal"')
  })
})
