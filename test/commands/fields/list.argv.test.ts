// fields: argv → options (the verb is mocked; what it prints is tested in test/cli/help.test.ts).
import { describe, vi } from 'vitest'
import { fields } from '../../../src/commands/fields/list.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/fields/list.js', () => ({ fields: vi.fn() }))

describe('fields: argv → options', () => {
  argvCases(vi.mocked(fields), {
    parses: [
      [['fields', 'members'], { resource: 'members' }],
      [['fields', 'events'], { resource: 'events' }],
    ],
    refuses: [
      [['fields'], "missing required argument 'resource'"],
      [['fields', 'memberz'], 'resource memberz: did you mean members?'],
      [
        ['fields', 'members', '--jq', '.'],
        '--jq filters JSON output; chamberctl fields prints none',
      ],
    ],
  })
})
