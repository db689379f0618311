// auth token: argv → the verb's call (mocked; its behaviour is in token.test.ts). It takes no
// options: the profile reaches it through the context.
import { describe, expect, vi } from 'vitest'
import { token } from '../../../src/commands/auth/token.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/auth/token.js', () => ({ token: vi.fn() }))

describe('auth token: argv → options', () => {
  argvCases(vi.mocked(token), {
    parses: [
      [
        ['auth', 'token', '--profile', 'staging'],
        expect.objectContaining({ globals: expect.objectContaining({ profile: 'staging' }) }),
      ],
    ],
    refuses: [
      [['auth', 'token', 'staging'], 'too many arguments'],
      [
        ['auth', 'token', '--jq', '.'],
        '--jq filters JSON output; chamberctl auth token prints none',
      ],
    ],
  })
})
