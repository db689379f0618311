// A profile named by --profile or CHAMBERCTL_PROFILE that does not exist: exit 2 naming those
// there are, for every command that reads a profile.
import { describe, expect, it } from 'vitest'
import { useCommands } from '../helpers/run-main.js'
import { useSandbox } from '../helpers/sandbox.js'
import { lines } from '../helpers/output.js'

const sandbox = useSandbox()
const { runBare, login } = useCommands(sandbox)

describe('profiles that do not exist', () => {
  it.each([
    ['--profile', ['--profile', 'nope'], {}],
    ['CHAMBERCTL_PROFILE', [], { CHAMBERCTL_PROFILE: 'nope' }],
  ])('%s naming none is exit 2 naming those there are', async (_, extra, env) => {
    await login(sandbox())
    await login(sandbox(), { extra: ['--profile', 'staging'] })
    for (const args of [['chambers', 'list'], ['auth', 'status'], ['auth', 'token'], ['logout']]) {
      const { code, stdout, stderr } = await runBare([...args, ...extra], { env })
      expect(code, args.join(' ')).toBe(2)
      expect(stdout).toBe('')
      expect(lines(stderr)).toEqual([
        'error: no profile nope: the profiles are default, staging; ' +
          '`chamberctl login --profile nope` creates it',
      ])
    }
  })

  it('says there are none yet when there are none', async () => {
    const { code, stderr } = await runBare(['chambers', 'list', '--profile', 'nope'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/^error: no profile nope: there are no profiles yet; /)
  })

  it('login creates one', async () => {
    const { code } = await login(sandbox(), { extra: ['--profile', 'new'] })
    expect(code).toBe(0)
    expect((await runBare(['chambers', 'list', '--profile', 'new'])).code).toBe(0)
  })
})
