// report duplicates: argv → options, the flag rules included (the verb is mocked, its toOptions
// is not; its behaviour is in duplicates.test.ts).
import { describe, vi } from 'vitest'
import { duplicates } from '../../../src/commands/report/duplicates.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/report/duplicates.js', async (real) => ({
  ...(await real<object>()),
  duplicates: vi.fn(),
}))

describe('report duplicates: argv → options', () => {
  argvCases(vi.mocked(duplicates), {
    parses: [
      [
        ['report', 'duplicates'],
        { selection: { type: undefined, status: undefined, memberStatus: undefined } },
      ],
      [
        ['report', 'duplicates', '--status', 'active', '--member-status', 'active'],
        { selection: { type: undefined, status: 'active', memberStatus: 'active' } },
      ],
    ],
    refuses: [
      [['report', 'duplicates', '--limit', '5'], "unknown option '--limit'"],
      [['report', 'duplicates', '--fields', 'phone'], 'known: key, chamber_id'],
    ],
  })
})
