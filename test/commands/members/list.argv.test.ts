// members list: argv → options (the verb is mocked; its behaviour is in list.test.ts).
import { describe, vi } from 'vitest'
import { list } from '../../../src/commands/members/list.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/members/list.js', () => ({ list: vi.fn() }))

describe('members list: argv → options', () => {
  argvCases(vi.mocked(list), {
    parses: [
      [['members', 'list', 'ch_0001'], { chamberId: 'ch_0001' }],
      [
        ['members', 'ls', 'ch_0001', '--status', 'pending', '--sort', '-joined_at', '--all'],
        { chamberId: 'ch_0001', status: 'pending', sort: '-joined_at', all: true },
      ],
      [['members', 'list', 'ch_0001', '--limit', '10'], { chamberId: 'ch_0001', limit: 10 }],
    ],
    refuses: [
      [['members', 'list'], "missing required argument 'chamber-id'"],
      [['members', 'list', 'ch_0001', '--status', 'gone'], '--status'],
      [['members', 'list', 'ch_0001', '--limit', 'ten'], '--limit'],
    ],
  })
})
