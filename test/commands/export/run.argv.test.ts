// export: argv → options (the verb is mocked; its behaviour is in run.test.ts).
import { describe, vi } from 'vitest'
import { exportFixture } from '../../../src/commands/export/run.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/export/run.js', () => ({ exportFixture: vi.fn() }))

describe('export: argv → options', () => {
  argvCases(vi.mocked(exportFixture), {
    parses: [
      [['export'], { chamberIds: [] }],
      [
        ['export', 'ch_0001', 'ch_0005', '--members'],
        { chamberIds: ['ch_0001', 'ch_0005'], members: true },
      ],
      [
        ['export', '--type', 'hq', '--status', 'active'],
        { chamberIds: [], type: 'hq', status: 'active' },
      ],
    ],
    refuses: [[['export', '--type', 'x'], '--type']],
  })
})
