// Where the client secret lives, for real: in GNOME Keyring through the Secret Service on a
// private D-Bus session (as on a desktop), and in the 0600 config file, with a warning at login,
// where there is no D-Bus at all (as on a headless server or in a container).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configFile, modeOf, patchToken, readProfile, tokenOf } from '../helpers/config-files.js'
import { loginArgs, useSandbox, useTempDirs } from '../helpers/sandbox.js'
import { runCli } from '../helpers/run-cli.js'
import type { CliOptions } from '../helpers/run-cli.js'
import {
  readKeyringEntry,
  removeKeyringEntry,
  secretServiceMissing,
  startSecretService,
} from '../helpers/secret-service.js'
import type { SecretService } from '../helpers/secret-service.js'

const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-keyring-')
const secret = () => sandbox().sandbox.credentials.clientSecret

function login(configDir: string, env: CliOptions['env'] = {}, extra: string[] = []) {
  return runCli([...loginArgs(sandbox()), ...extra], {
    configDir,
    env,
    stdin: { text: `${secret()}\n` },
  })
}

// Every file chamberctl wrote, so that a secret cannot hide in one we did not think of.
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(path.join(entry.parentPath, entry.name), 'utf8'))
}

// One short line, no system internals in it (contract §2), naming the flag that silences it;
// where the secret went is the login's own `secret:` line, not said again.
const NOT_AVAILABLE =
  'warning: no OS keyring; --insecure-storage chooses the file without this warning'

describe('without a D-Bus session (a headless machine)', () => {
  it('login keeps the secret in the 0600 config file and says so in one short line', async () => {
    const dir = tempDir()
    const { code, stderr } = await login(dir)
    expect(code).toBe(0)
    const lines = stderr.split('\n')
    expect(lines.filter((line) => line.includes('OS keyring'))).toEqual([NOT_AVAILABLE])
    expect(stderr).not.toMatch(/dbus|d-bus|platform/i)
    expect(stderr).toContain(`  secret:        stored in ${configFile(dir)} (mode 0600)`)
    // Said once: the warning does not repeat where the secret went.
    expect(stderr).not.toMatch(/config file/)
    expect(readProfile(dir).client_secret).toBe(secret())
    expect(readProfile(dir).keyring_account).toBeUndefined()
    expect(modeOf(configFile(dir))).toBe(0o600)

    const status = await runCli(['auth', 'status', '--json'], { configDir: dir })
    expect(status.code).toBe(0)
    expect(JSON.parse(status.stdout)[0]).toMatchObject({
      profile: 'default',
      secret_storage: 'config_file',
    })
    // Said at login only: later commands, even one that uses the secret, stay quiet about it.
    patchToken(dir, { expires_at: Date.now() - 1 })
    const list = await runCli(['chambers', 'list', '--limit', '1'], { configDir: dir })
    expect(list.code).toBe(0)
    expect(list.stderr).toBe('')
  })

  it('-q silences the notice; the secret still goes to the file', async () => {
    const dir = tempDir()
    const { code, stderr } = await login(dir, {}, ['-q'])
    expect(code).toBe(0)
    expect(stderr).toBe('')
    expect(readProfile(dir).client_secret).toBe(secret())
  })

  it('--debug adds why there is no keyring, on a debug line of its own', async () => {
    const dir = tempDir()
    const { code, stderr } = await login(dir, {}, ['--debug'])
    expect(code).toBe(0)
    expect(stderr).toMatch(/^debug: OS keyring: \S.*$/m)
    expect(stderr.split('\n')).toContain(NOT_AVAILABLE)
  })

  it('--insecure-storage chooses the file without a warning', async () => {
    const dir = tempDir()
    const { code, stderr } = await login(dir, {}, ['--insecure-storage'])
    expect(code).toBe(0)
    expect(stderr).not.toContain('warning')
    expect(readProfile(dir).client_secret).toBe(secret())
  })
})

describe.skipIf(secretServiceMissing !== undefined)(
  `with a real Secret Service (GNOME Keyring)${secretServiceMissing ? `: skipped, ${secretServiceMissing}` : ''}`,
  () => {
    let service: SecretService
    let home: string
    // Its own directory, not a tempDir(): those go after each test, and the daemon with them.
    beforeAll(async () => {
      home = mkdtempSync(path.join(tmpdir(), 'chamberctl-secret-service-'))
      service = await startSecretService(home)
    })
    afterAll(async () => {
      await service?.stop()
      rmSync(home, { recursive: true, force: true })
    })
    const bus = () => service.env

    it('login stores the secret in the keyring and nowhere on disk', async () => {
      const dir = tempDir()
      const { code, stderr } = await login(dir, bus())
      expect(code).toBe(0)
      expect(stderr).not.toContain('warning')
      expect(stderr).toContain('  secret:        stored in the OS keyring')
      const profile = readProfile(dir)
      expect(profile.client_secret).toBeUndefined()
      expect(readKeyringEntry(service, profile.keyring_account!)).toBe(secret())
      for (const text of filesUnder(dir)) expect(text).not.toContain(secret())

      const status = await runCli(['auth', 'status', '--json'], { configDir: dir, env: bus() })
      expect(JSON.parse(status.stdout)[0]).toMatchObject({ secret_storage: 'keyring' })
    })

    it('a valid cached token needs no keyring; an expired one is renewed with the keyring secret', async () => {
      const dir = tempDir()
      expect((await login(dir, bus())).code).toBe(0)
      const first = tokenOf(readProfile(dir))?.access_token

      // No D-Bus at all: the cached token is enough, so the keyring is never asked.
      const cached = await runCli(['chambers', 'list', '--limit', '1'], { configDir: dir })
      expect(cached.code).toBe(0)

      patchToken(dir, { expires_at: Date.now() - 1 })
      const stuck = await runCli(['chambers', 'list', '--limit', '1'], { configDir: dir })
      expect(stuck.code).toBe(4)
      expect(stuck.stderr).toMatch(
        /^error: cannot read the client secret of profile default from the OS keyring \(.+\); run `chamberctl login` again$/m,
      )

      const renewed = await runCli(['chambers', 'list', '--limit', '1'], {
        configDir: dir,
        env: bus(),
      })
      expect(renewed.code).toBe(0)
      expect(tokenOf(readProfile(dir))?.access_token).not.toBe(first)
    })

    it('logout removes the secret from the keyring', async () => {
      const dir = tempDir()
      expect((await login(dir, bus())).code).toBe(0)
      const account = readProfile(dir).keyring_account!
      const { code, stderr } = await runCli(['logout'], { configDir: dir, env: bus() })
      expect(code).toBe(0)
      expect(stderr).toBe(
        'Logged out of profile default: token and secret removed (the secret from the OS keyring)\n',
      )
      expect(readKeyringEntry(service, account)).toBeNull()
      expect(Object.keys(readProfile(dir)).sort()).toEqual(['base_url', 'client_id'])
    })

    it('logout where the keyring cannot be reached says so, and a later logout finishes', async () => {
      const dir = tempDir()
      expect((await login(dir, bus())).code).toBe(0)
      const account = readProfile(dir).keyring_account!
      const away = await runCli(['logout'], { configDir: dir })
      expect(away.code).toBe(1)
      expect(away.stderr).toMatch(
        /^error: logged out of profile default, but its secret is still in the OS keyring, which cannot be reached here \(.+\); run `chamberctl logout` again where it can\n$/,
      )
      expect(readProfile(dir)).toEqual({
        base_url: sandbox().v2,
        client_id: 'sandbox-client',
        keyring_account: account,
      })
      expect(readKeyringEntry(service, account)).toBe(secret())

      expect((await runCli(['logout'], { configDir: dir, env: bus() })).code).toBe(0)
      expect(readKeyringEntry(service, account)).toBeNull()
    })

    it('--insecure-storage keeps the secret in the file and leaves nothing in the keyring', async () => {
      const dir = tempDir()
      expect((await login(dir, bus())).code).toBe(0)
      const account = readProfile(dir).keyring_account!
      const { code, stderr } = await login(dir, bus(), ['--insecure-storage'])
      expect(code).toBe(0)
      expect(stderr).not.toContain('warning')
      expect(readProfile(dir).client_secret).toBe(secret())
      expect(readProfile(dir).keyring_account).toBeUndefined()
      expect(readKeyringEntry(service, account)).toBeNull()
    })

    it('a secret removed from the keyring behind its back asks for a new login (exit 4)', async () => {
      const dir = tempDir()
      expect((await login(dir, bus())).code).toBe(0)
      const account = readProfile(dir).keyring_account!
      // Logging in again overwrites the same entry rather than leaving one behind.
      expect((await login(dir, bus())).code).toBe(0)
      expect(readProfile(dir).keyring_account).toBe(account)
      removeKeyringEntry(service, account)
      patchToken(dir, { expires_at: Date.now() - 1 })

      const { code, stderr } = await runCli(['chambers', 'list'], { configDir: dir, env: bus() })
      expect(code).toBe(4)
      expect(stderr).toContain(
        'error: the client secret of profile default is no longer in the OS keyring; run `chamberctl login` again',
      )
    })
  },
)
