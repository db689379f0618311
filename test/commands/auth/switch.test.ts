// `auth switch`: the active profile, kept in the config file, and what overrides it.
import { readFileSync } from 'node:fs'
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it } from 'vitest'
import { configFile, modeOf, readProfile } from '../../helpers/config-files.js'
import { lines } from '../../helpers/output.js'
import { startSession } from '../../helpers/run-main.js'
import { KEY, Prompts, finishes } from '../../helpers/session.js'
import { POSIX, useAuthSandbox } from './helpers.js'

const { sandbox, configDir, runBare, login, secret } = useAuthSandbox()

describe('auth switch', () => {
  it('makes a profile the active one, kept in the config file', async () => {
    await login(sandbox())
    await login(sandbox(), { baseUrl: sandbox().v1, extra: ['--profile', 'old'] })
    const { code, stdout, stderr } = await runBare(['auth', 'switch', 'old'])
    expect(code, stderr).toBe(0)
    expect(stdout).toBe('')
    expect(stderr).toBe('Switched to profile old\n')
    if (POSIX) expect(modeOf(configFile(configDir()))).toBe(0o600)

    // Later commands use it: the v1 API answers without v2's fields.
    const status = await runBare(['auth', 'status', '--json'])
    expect(JSON.parse(status.stdout)).toEqual([
      expect.objectContaining({ profile: 'default', active: false }),
      expect.objectContaining({ profile: 'old', active: true, api_version: 'v1' }),
    ])
    expect(status.stderr).toBe(`Checked profile old at ${sandbox().v1}: can authenticate\n`)
    // A login without --profile logs in to the active profile again.
    await login(sandbox(), { baseUrl: sandbox().v1 })
    expect(readProfile(configDir(), 'old').client_secret).toBe(secret())
  })

  it('is overridden for one command by --profile and CHAMBERCTL_PROFILE', async () => {
    await login(sandbox())
    await login(sandbox(), { baseUrl: sandbox().v1, extra: ['--profile', 'old'] })
    await runBare(['auth', 'switch', 'old'])
    const activeOf = async (extra: string[], env = {}) => {
      const { stdout } = await runBare(['auth', 'status', '--json', ...extra], { env })
      return (JSON.parse(stdout) as { profile: string; active: boolean }[])
        .filter((record) => record.active)
        .map((record) => record.profile)
    }
    expect(await activeOf(['--profile', 'default'])).toEqual(['default'])
    expect(await activeOf([], { CHAMBERCTL_PROFILE: 'default' })).toEqual(['default'])
    expect(await activeOf([])).toEqual(['old'])
  })

  it('notes a CHAMBERCTL_PROFILE that overrides the switch', async () => {
    await login(sandbox())
    await login(sandbox(), { extra: ['--profile', 'old'] })
    const { code, stderr } = await runBare(['auth', 'switch', 'old'], {
      env: { CHAMBERCTL_PROFILE: 'default' },
    })
    expect(code).toBe(0)
    expect(lines(stderr)).toEqual([
      'Switched to profile old',
      'note: CHAMBERCTL_PROFILE=default is set, and overrides it where it is set',
    ])
  })

  it('exits 2 naming the profiles for one that does not exist, changing nothing', async () => {
    await login(sandbox())
    const before = readFileSync(configFile(configDir()), 'utf8')
    const { code, stderr } = await runBare(['auth', 'switch', 'nope'])
    expect(code).toBe(2)
    expect(lines(stderr)).toEqual([
      'error: no profile nope: the profiles are default; `chamberctl login --profile nope` creates it',
    ])
    expect(readFileSync(configFile(configDir()), 'utf8')).toBe(before)
  })

  it('without a name and a terminal, exits 2 naming the profiles there are', async () => {
    expect(await runBare(['auth', 'switch'])).toMatchObject({
      code: 2,
      stderr: 'error: there are no profiles yet; `chamberctl login` creates one\n',
    })
    await login(sandbox())
    await login(sandbox(), { extra: ['--profile', 'old'] })
    const before = readFileSync(configFile(configDir()), 'utf8')
    const tty = { stdinIsTTY: true, stdoutIsTTY: true, stderrIsTTY: true }
    for (const [args, options] of [
      [['auth', 'switch'], {}],
      [['auth', 'switch', '--no-input'], { ...tty, env: { NO_COLOR: '1' } }],
    ] as const) {
      const { code, stderr } = await runBare([...args], options)
      expect(code).toBe(2)
      expect(lines(stderr)).toEqual([
        'error: missing profile: the profiles are default, old (cannot prompt here)',
      ])
    }
    expect(readFileSync(configFile(configDir()), 'utf8')).toBe(before)
  })

  it('without a name on a terminal, offers the profiles, the active one first chosen', async () => {
    await login(sandbox())
    await login(sandbox(), { extra: ['--profile', 'old'] })
    const session = startSession(['auth', 'switch'], {
      stdinIsTTY: true,
      stdoutIsTTY: true,
      stderrIsTTY: true,
      env: { CHAMBERCTL_CONFIG_DIR: configDir(), NO_COLOR: '1' },
    })
    const prompts = new Prompts(session.stderr, session.stdin)
    await prompts.answer(/❯ default \(active\)/, KEY.down)
    await prompts.answer(/❯ old/, KEY.enter)
    const { code, stderr } = await finishes(session)
    expect(code, stderr).toBe(0)
    expect(lines(stripVTControlCharacters(stderr)).at(-1)).toBe('Switched to profile old')
    const status = await runBare(['auth', 'status', '--json'])
    expect(JSON.parse(status.stdout)).toContainEqual(
      expect.objectContaining({ profile: 'old', active: true }),
    )
  })

  it('in accessible mode, numbers the profiles: a number and Enter chooses', async () => {
    await login(sandbox())
    await login(sandbox(), { extra: ['--profile', 'old'] })
    const session = startSession(['auth', 'switch', '--accessible'], {
      stdinIsTTY: true,
      stdoutIsTTY: true,
      stderrIsTTY: true,
      env: { CHAMBERCTL_CONFIG_DIR: configDir(), NO_COLOR: '1' },
    })
    const prompts = new Prompts(session.stderr, session.stdin)
    const { before } = await prompts.next(/\? Type a number from 1 to 2 \(1\)/)
    expect(before).toBe('Profile to switch to:\n  1. default (active)\n  2. old\n')
    session.stdin.write(`2${KEY.enter}`)
    const { code, stderr } = await finishes(session)
    expect(code, stderr).toBe(0)
    expect(stderr).not.toContain('❯')
    expect(lines(stripVTControlCharacters(stderr)).at(-1)).toBe('Switched to profile old')
  })
})
