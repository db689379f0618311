// auth switch: argv → options (the verb is mocked; its behaviour is in switch.test.ts).
import { describe, vi } from 'vitest'
import { switchProfile } from '../../../src/commands/auth/switch.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/auth/switch.js', () => ({ switchProfile: vi.fn() }))

describe('auth switch: argv → options', () => {
  argvCases(vi.mocked(switchProfile), {
    parses: [
      [['auth', 'switch', 'staging'], { profile: 'staging' }],
      // Left out: offered on a terminal, refused elsewhere (by the verb, which knows the profiles).
      [['auth', 'switch'], {}],
    ],
    refuses: [[['auth', 'switch', 'staging', 'default'], 'too many arguments']],
  })
})
