// events list: argv → options (the verb is mocked; its behaviour is in list.test.ts).
import { describe, vi } from 'vitest'
import { list } from '../../../src/commands/events/list.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/events/list.js', () => ({ list: vi.fn() }))

describe('events list: argv → options', () => {
  argvCases(vi.mocked(list), {
    parses: [
      [['events', 'list', 'ch_0001'], { chamberId: 'ch_0001' }],
      [
        [
          'events',
          'ls',
          'ch_0001',
          '--status',
          'upcoming',
          '--from',
          '2026-03-01',
          '--to',
          '2026-03-31',
        ],
        { chamberId: 'ch_0001', status: 'upcoming', from: '2026-03-01', to: '2026-03-31' },
      ],
    ],
    refuses: [
      [['events', 'list', 'ch_0001', '--status', 'soon'], '--status'],
      [['events', 'list'], "missing required argument 'chamber-id'"],
    ],
  })
})
