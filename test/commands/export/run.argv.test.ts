// export: argv → options, the flag rules included (the verb is mocked, its toOptions is not; its
// behaviour is in run.test.ts).
import { describe, vi } from 'vitest'
import { exportFixture } from '../../../src/commands/export/run.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/export/run.js', async (real) => ({
  ...(await real<object>()),
  exportFixture: vi.fn(),
}))

describe('export: argv → options', () => {
  argvCases(vi.mocked(exportFixture), {
    parses: [
      [['export'], { chamberIds: [] }],
      [
        ['export', 'ch_0001', 'ch_0005', '--members'],
        { chamberIds: ['ch_0001', 'ch_0005'], members: true },
      ],
      // Each chamber once, however often it is named.
      [['export', 'ch_0001', 'ch_0001', '--json'], { chamberIds: ['ch_0001'] }],
      [
        ['export', '--type', 'hq', '--status', 'active'],
        { chamberIds: [], type: 'hq', status: 'active' },
      ],
    ],
    refuses: [
      [['export', '--type', 'x'], '--type'],
      [['export', 'ch_0001', '--type', 'hq'], 'give chamber ids or --type/--status, not both'],
      [
        ['export', 'ch_0001', '--status', 'active'],
        'give chamber ids or --type/--status, not both',
      ],
      [['export', '..'], 'chamber id ".." cannot be . or ..'],
      [['export', '-o', 'csv'], 'not -o csv'],
      [['export', '--fields', 'id'], '--fields does not apply'],
    ],
  })
})
