// `auth token`: a working token, from the environment or a profile's cache, refreshed when
// expired; a token cache that cannot be read is discarded in one line.
import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { patchToken, readProfile, tokenFile, tokenOf } from '../../helpers/config-files.js'
import { lines } from '../../helpers/output.js'
import { tokenWorks, useAuthSandbox } from './helpers.js'

const { sandbox, configDir, run, runBare, login } = useAuthSandbox()

describe('auth token', () => {
  it('prints a working token from environment credentials', async () => {
    const { code, stdout, stderr } = await run(['auth', 'token'])
    expect(code, stderr).toBe(0)
    expect(stdout).toMatch(/^sbx_v2_\S+\n$/)
    expect(await tokenWorks(sandbox(), stdout.trim())).toBe(200)
  })

  it("prints the profile's cached token while it is valid", async () => {
    await login(sandbox())
    sandbox().reset()
    const { stdout } = await runBare(['auth', 'token'])
    expect(stdout.trim()).toBe(tokenOf(readProfile(configDir()))!.access_token)
    expect(sandbox().requests).toEqual([])
  })

  it('refreshes an expired token, prints and caches the new one', async () => {
    await login(sandbox())
    const old = tokenOf(readProfile(configDir()))!.access_token
    patchToken(configDir(), { expires_at: Date.now() - 1_000 })
    const { code, stdout } = await runBare(['auth', 'token'])
    expect(code).toBe(0)
    const fresh = stdout.trim()
    expect(fresh).not.toBe(old)
    expect(await tokenWorks(sandbox(), fresh)).toBe(200)
    expect(tokenOf(readProfile(configDir()))!.access_token).toBe(fresh)
    expect(tokenOf(readProfile(configDir()))!.expires_at).toBeGreaterThan(Date.now())
  })

  it.each([
    ['{"profile": "default", "tokens": {', 'not valid JSON'],
    ['{"tokens": {"x": {"access_token": 1}}}', 'the token of x has no access_token string'],
  ])(
    'discards a token cache that cannot be read (%s) in one line, then caches a new token',
    async (text, reason) => {
      await login(sandbox())
      const file = tokenFile(configDir())
      writeFileSync(file, text)
      const { code, stdout, stderr } = await runBare(['auth', 'token'])
      expect(code, stderr).toBe(0)
      expect(await tokenWorks(sandbox(), stdout.trim())).toBe(200)
      expect(lines(stderr)).toEqual([
        `warning: the token cache of profile default could not be read (${reason}) and was discarded: ${file}`,
      ])
      expect(tokenOf(readProfile(configDir()))!.access_token).toBe(stdout.trim())
      // Once: the new cache reads.
      expect((await runBare(['auth', 'token'])).stderr).toBe('')
    },
  )

  it('discards an unreadable token cache without a word under -q', async () => {
    await login(sandbox())
    writeFileSync(tokenFile(configDir()), '[]')
    const { code, stderr } = await runBare(['chambers', 'list', '-q'])
    expect(code, stderr).toBe(0)
    expect(stderr).toBe('')
  })

  it('exits 4 without credentials', async () => {
    const { code, stdout } = await runBare(['auth', 'token'])
    expect(code).toBe(4)
    expect(stdout).toBe('')
  })
})
