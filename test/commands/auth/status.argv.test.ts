// auth status: argv → the verb's call (mocked; its behaviour is in status.test.ts). It takes no
// options: the profile and the output format reach it through the context.
import { describe, expect, vi } from 'vitest'
import { status } from '../../../src/commands/auth/status.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/auth/status.js', () => ({ status: vi.fn() }))

describe('auth status: argv → options', () => {
  argvCases(vi.mocked(status), {
    parses: [
      [
        ['auth', 'status'],
        expect.objectContaining({ globals: expect.objectContaining({ format: 'tsv' }) }),
      ],
      [
        ['auth', 'status', '--profile', 'staging', '--json'],
        expect.objectContaining({
          globals: expect.objectContaining({ profile: 'staging', format: 'json' }),
        }),
      ],
    ],
    refuses: [
      [['auth', 'status', 'staging'], 'too many arguments'],
      [['auth', 'status', '-o', 'xml'], 'unknown output format "xml"'],
    ],
  })
})
