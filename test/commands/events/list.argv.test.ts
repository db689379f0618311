// events list: argv → options, the flag rules included (the verb is mocked, its toOptions is not;
// its behaviour is in list.test.ts).
import { describe, vi } from 'vitest'
import { list } from '../../../src/commands/events/list.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/events/list.js', async (real) => ({
  ...(await real<object>()),
  list: vi.fn(),
}))

describe('events list: argv → options', () => {
  argvCases(vi.mocked(list), {
    parses: [
      [['events', 'list', 'ch_0001'], { chamberId: 'ch_0001', paging: {}, filters: {} }],
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
        {
          chamberId: 'ch_0001',
          paging: {},
          filters: { status: 'upcoming', from: '2026-03-01', to: '2026-03-31' },
        },
      ],
      // A date-time is sent in RFC 3339 form; the same day at both ends is a range.
      [
        ['events', 'list', 'ch_0001', '--from', '2026-03-01T10:00+02:00', '--to', '2026-03-01'],
        {
          chamberId: 'ch_0001',
          paging: {},
          filters: { from: '2026-03-01T10:00:00+02:00', to: '2026-03-01' },
        },
      ],
      [
        ['events', 'list', 'ch_0001', '--page', '2', '--per-page', '5'],
        { chamberId: 'ch_0001', paging: { page: 2, perPage: 5 }, filters: {} },
      ],
    ],
    refuses: [
      [['events', 'list', 'ch_0001', '--status', 'soon'], '--status'],
      [['events', 'list'], "missing required argument 'chamber-id'"],
      [['events', 'list', 'ch_0001', '--all', '--page', '2'], '--all walks every page'],
      [
        ['events', 'list', 'ch_0001', '--from', '2026-04-01', '--to', '2026-03-31'],
        '--from 2026-04-01 is after --to 2026-03-31: no event could match',
      ],
      [['events', 'list', 'ch_0001', '--from', 'next tuesday'], '--from next tuesday'],
      [['events', 'list', 'ch_0001', '--to', '2026-13-01'], '--to 2026-13-01'],
      [['events', 'list', ''], 'chamber id "" is empty'],
    ],
  })
})
