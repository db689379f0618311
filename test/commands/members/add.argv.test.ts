// members add: argv → options, the flag rules included (the verb is mocked, its toOptions is not;
// its behaviour is in add.test.ts, the rules of bulk runs in test/behaviour/bulk-runs.test.ts).
import { describe, vi } from 'vitest'
import { add } from '../../../src/commands/members/add.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/members/add.js', async (real) => ({
  ...(await real<object>()),
  add: vi.fn(),
}))

describe('members add: argv → options', () => {
  argvCases(vi.mocked(add), {
    parses: [
      [['members', 'add', 'ch_0001'], { chamberId: 'ch_0001', concurrency: 8 }],
      [
        [
          'members',
          'add',
          'ch_0001',
          '--name',
          'Ada Lovelace',
          '--email',
          'ada@example.com',
          '--phone',
          '+44 20 7946 0000',
          '--membership-type',
          'standard',
        ],
        {
          chamberId: 'ch_0001',
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          phone: '+44 20 7946 0000',
          membershipType: 'standard',
          concurrency: 8,
        },
      ],
      [
        [
          'members',
          'add',
          'ch_0001',
          '--from-file',
          'members.csv',
          '--concurrency',
          '16',
          '--skip-existing',
          '--resume',
          '--verbose',
          '--dry-run',
        ],
        {
          chamberId: 'ch_0001',
          fromFile: 'members.csv',
          concurrency: 16,
          skipExisting: true,
          resume: true,
          verbose: true,
          dryRun: true,
        },
      ],
    ],
    refuses: [
      [['members', 'add'], "missing required argument 'chamber-id'"],
      [['members', 'add', 'ch_0001', '--concurrency', '65'], '--concurrency'],
      [['members', 'add', 'ch_0001', '--concurrency', '0'], '--concurrency'],
      [
        ['members', 'add', 'ch_0001', '--resume'],
        'error: --resume is for bulk runs: --from-file with many rows',
      ],
      [
        ['members', 'add', 'ch_0001', '--name', 'Ada', '--skip-existing'],
        'error: --skip-existing is for bulk runs: --from-file with many rows',
      ],
    ],
  })
})
