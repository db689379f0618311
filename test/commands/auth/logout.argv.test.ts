// logout: argv → the verb's call (mocked; its behaviour is in logout.test.ts). It takes no
// options: the profile it forgets reaches it through the context.
import { describe, expect, vi } from 'vitest'
import { logout } from '../../../src/commands/auth/logout.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/auth/logout.js', () => ({ logout: vi.fn() }))

describe('logout: argv → options', () => {
  argvCases(vi.mocked(logout), {
    parses: [
      [
        ['logout'],
        expect.objectContaining({ globals: expect.not.objectContaining({ profile: 'staging' }) }),
      ],
      [
        ['logout', '--profile', 'staging'],
        expect.objectContaining({ globals: expect.objectContaining({ profile: 'staging' }) }),
      ],
    ],
    refuses: [
      [['logout', 'staging'], 'too many arguments'],
      [['logout', '--jq', '.'], '--jq filters JSON output; chamberctl logout prints none'],
    ],
  })
})
