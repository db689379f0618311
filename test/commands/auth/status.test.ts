// `auth status`: a block per profile, the active one marked, what it checked, in every format.
import { describe, expect, it } from 'vitest'
import { patchProfile, patchToken, readProfile, tokenOf } from '../../helpers/config-files.js'
import { lines, yamlDocuments } from '../../helpers/output.js'
import { useAuthSandbox } from './helpers.js'

const { sandbox, configDir, run, runBare, login, secret, clientId } = useAuthSandbox()

describe('auth status', () => {
  // Two profiles: `default` (v2, secret in the config file) and `old` (v1, token only).
  async function twoProfiles() {
    await login(sandbox())
    await login(sandbox(), {
      baseUrl: sandbox().v1,
      extra: ['--profile', 'old', '--no-store-secret'],
    })
  }

  it('shows a block of lines per profile, the active one marked, and what it checked', async () => {
    await twoProfiles()
    const { code, stdout, stderr } = await runBare(['auth', 'status', '-o', 'table'])
    expect(code, stderr).toBe(0)
    const expiry = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(in 60 min\)/.source
    expect(stdout).toMatch(
      new RegExp(
        [
          'default \\(active\\)',
          `  Base URL:    ${sandbox().v2}`,
          '  API version: v2',
          `  Client id:   ${clientId()}`,
          '  Secret:      in the config file \\(mode 0600\\)',
          `  Token:       valid until ${expiry}`,
          '',
          'old',
          `  Base URL:    ${sandbox().v1}`,
          '  API version: v1',
          `  Client id:   ${clientId()}`,
          '  Secret:      not stored',
          `  Token:       valid until ${expiry}`,
          '',
        ].join('\n') + '$',
      ),
    )
    expect(stderr).toBe(`Checked profile default at ${sandbox().v2}: can authenticate\n`)
  })

  it('prints one object per profile with --json, and the same keys as TSV in a pipe', async () => {
    await twoProfiles()
    patchToken(configDir(), { expires_at: Date.now() - 1 }, 'old')
    const { code, stdout } = await runBare(['auth', 'status', '--json'])
    expect(code).toBe(0)
    const expiresAt = tokenOf(readProfile(configDir()))!.expires_at!
    const records = JSON.parse(stdout) as Record<string, unknown>[]
    expect(records).toEqual([
      {
        profile: 'default',
        active: true,
        base_url: sandbox().v2,
        api_version: 'v2',
        client_id: clientId(),
        secret_storage: 'config_file',
        token_valid: true,
        expires_at: new Date(expiresAt).toISOString(),
      },
      expect.objectContaining({
        profile: 'old',
        active: false,
        secret_storage: 'none',
        token_valid: false,
      }),
    ])
    expect(stdout).not.toContain(secret())
    expect(stdout).not.toContain(tokenOf(readProfile(configDir()))!.access_token)
    const tsv = await runBare(['auth', 'status'])
    expect(lines(tsv.stdout).map((line) => line.split('\t'))).toEqual(
      records.map((record) => Object.values(record).map(String)),
    )
    const yaml = await runBare(['auth', 'status', '-o', 'yaml'])
    expect(yamlDocuments(yaml.stdout)).toEqual([records])
  })

  it('says null for a token that never expires or is not there', async () => {
    await login(sandbox())
    patchToken(configDir(), { expires_at: undefined })
    const { stdout } = await runBare(['auth', 'status', '--json'])
    expect(JSON.parse(stdout)).toEqual([
      expect.objectContaining({ token_valid: true, expires_at: null }),
    ])
    await runBare(['logout'])
    const after = await runBare(['auth', 'status', '--json'])
    expect(after.code).toBe(4)
    expect(JSON.parse(after.stdout)).toEqual([
      expect.objectContaining({ secret_storage: 'none', token_valid: false, expires_at: null }),
    ])
  })

  it('never prints the password of a base URL', async () => {
    await login(sandbox())
    const withPassword = sandbox().v2.replace('http://', 'http://ada:hunter2@')
    patchProfile(configDir(), { base_url: withPassword })
    for (const format of ['table', 'json', 'tsv', 'yaml']) {
      const { stdout, stderr } = await runBare(['auth', 'status', '-o', format])
      expect(stdout + stderr).not.toMatch(/hunter2|ada:/)
      expect(stdout).toContain(sandbox().v2)
    }
  })

  it('says when it checked the environment, and marks no profile active', async () => {
    await login(sandbox())
    const { code, stdout, stderr } = await run(['auth', 'status', '-o', 'table'])
    expect(code, stderr).toBe(0)
    expect(stdout).toMatch(/^default\n/)
    expect(stdout).toMatch(
      /\nenvironment \(active\)\n {2}Base URL: +\S+\n {2}API version: +v2\n {2}Credentials: +CHAMBERCTL_CLIENT_ID, CHAMBERCTL_CLIENT_SECRET\n$/,
    )
    expect(stderr).toBe(
      "Checked the environment's credentials (CHAMBERCTL_CLIENT_ID, CHAMBERCTL_CLIENT_SECRET) " +
        `at ${sandbox().v2}: can authenticate\n`,
    )
    const json = await run(['auth', 'status', '--json'])
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ active: false })])
  })

  it('says when it checked the sandbox', async () => {
    const { code, stdout, stderr } = await runBare(['auth', 'status', '--sandbox', '-o', 'table'])
    expect(code, stderr).toBe(0)
    expect(stdout).toBe('sandbox (active)\n  Credentials: its own; no login needed\n')
    expect(stderr).toBe('Checked the sandbox (API v2): can authenticate\n')
  })

  it('names the environment token that a profile is used with when it fails', async () => {
    await login(sandbox())
    const { code, stderr } = await runBare(['auth', 'status'], {
      env: { CHAMBERCTL_TOKEN: 'revoked' },
    })
    expect(code).toBe(4)
    expect(stderr).toMatch(/^error: profile default with CHAMBERCTL_TOKEN cannot authenticate: /)
  })

  it('exits 4 when there is no profile at all', async () => {
    const { code, stdout, stderr } = await runBare(['auth', 'status'])
    expect(code).toBe(4)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/^error: profile default cannot authenticate: not logged in/)
  })

  it('exits 4 when the profile holds a wrong secret and an expired token', async () => {
    await login(sandbox())
    patchProfile(configDir(), { client_secret: 'revoked' })
    patchToken(configDir(), { expires_at: Date.now() - 1 })
    const { code, stdout, stderr } = await runBare(['auth', 'status', '-o', 'table'])
    expect(code).toBe(4)
    expect(stdout).toMatch(/^default \(active\)\n/)
    expect(stdout).toMatch(/ {2}Token: +expired at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/)
    expect(stderr).toMatch(/^error: profile default cannot authenticate: .*client authentication/)
  })

  it('exits 5 when the server of the active profile is down', async () => {
    await login(sandbox())
    patchProfile(configDir(), { base_url: 'http://127.0.0.1:1/v2' })
    const down = await runBare(['auth', 'status'])
    expect(down.code).toBe(5)
  })
})
