// members list: argv → options, the flag rules included (the verb is mocked, its toOptions is
// not; its behaviour is in list.test.ts).
import { describe, vi } from 'vitest'
import { list } from '../../../src/commands/members/list.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/members/list.js', async (real) => ({
  ...(await real<object>()),
  list: vi.fn(),
}))

describe('members list: argv → options', () => {
  argvCases(vi.mocked(list), {
    parses: [
      [['members', 'list', 'ch_0001'], { chamberId: 'ch_0001', paging: {}, filters: {} }],
      [
        ['members', 'ls', 'ch_0001', '--status', 'pending', '--sort', '-joined_at', '--all'],
        {
          chamberId: 'ch_0001',
          paging: { all: true },
          filters: { status: 'pending', sort: '-joined_at' },
        },
      ],
      [
        ['members', 'list', 'ch_0001', '--all', '-o', 'yaml', '--fields', 'id,email'],
        { chamberId: 'ch_0001', paging: { all: true }, filters: {} },
      ],
      [
        ['members', 'list', 'ch_0001', '--limit', '10'],
        { chamberId: 'ch_0001', paging: { limit: 10 }, filters: {} },
      ],
    ],
    refuses: [
      [['members', 'list'], "missing required argument 'chamber-id'"],
      [['members', 'list', 'ch_0001', '--status', 'gone'], '--status'],
      [['members', 'list', 'ch_0001', '--limit', 'ten'], '--limit'],
      [['members', 'list', 'ch_0001', '--page', '3', '--all'], '--all walks every page'],
      [['members', 'list', 'ch_0001', '--sort', 'joined'], '--sort joined'],
      [['members', 'list', '..'], 'chamber id ".." cannot be . or ..'],
      [['members', 'list', 'ch_0001', '--fields', 'mail'], '--fields: members have no field'],
      [
        ['members', 'list', 'ch_0001', '-o', 'yaml', '--jq', '.'],
        '--jq filters JSON: use it with --json or -o ndjson, not -o yaml',
      ],
      [['members', 'list', 'ch_0001', '--json', '-o', 'yaml'], '--json conflicts with -o yaml'],
      [['members', 'list', 'ch_0001', '-o', 'yml'], 'csv, yaml'],
    ],
  })
})
