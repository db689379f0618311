// `logout`: the token and the secret forgotten, where and as whom kept.
import { existsSync, mkdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { configFile, modeOf, readProfile, tokenFile } from '../../helpers/config-files.js'
import { POSIX, useAuthSandbox } from './helpers.js'

const { sandbox, configDir, runBare, login, clientId } = useAuthSandbox()

describe('logout', () => {
  it('removes the token and the secret, keeping where and as whom', async () => {
    await login(sandbox())
    const { code, stderr } = await runBare(['logout'])
    expect(code).toBe(0)
    expect(stderr).toMatch(/token and secret removed/)
    expect(readProfile(configDir())).toEqual({ base_url: sandbox().v2, client_id: clientId() })
    expect(existsSync(tokenFile(configDir()))).toBe(false)
    if (POSIX) expect(modeOf(configFile(configDir()))).toBe(0o600)
    expect((await runBare(['chambers', 'list'])).code).toBe(4)
    expect((await runBare(['auth', 'status'])).code).toBe(4)
  })

  it('says so when there is nothing to forget, and exits 0', async () => {
    mkdirSync(configDir(), { recursive: true })
    const { code, stderr } = await runBare(['logout'])
    expect(code).toBe(0)
    expect(stderr).toMatch(/holds no token or secret/)
  })
})
