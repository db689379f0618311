// chambers create: argv → options (the verb is mocked, its toOptions is not; its behaviour is in
// create.test.ts).
import { describe, vi } from 'vitest'
import { create } from '../../../src/commands/chambers/create.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/chambers/create.js', async (real) => ({
  ...(await real<object>()),
  create: vi.fn(),
}))

describe('chambers create: argv → options', () => {
  argvCases(vi.mocked(create), {
    parses: [
      [['chambers', 'create'], {}],
      [
        [
          'chambers',
          'create',
          '--name',
          'Kiel Chamber',
          '--type',
          'subsidiary',
          '--hq-id',
          'ch_0002',
          '--address-field',
          'city=Kiel',
          '--address-field',
          'postal_code=03046',
          '--dry-run',
        ],
        {
          name: 'Kiel Chamber',
          type: 'subsidiary',
          hqId: 'ch_0002',
          addressField: [
            ['city', 'Kiel'],
            ['postal_code', '03046'],
          ],
          dryRun: true,
        },
      ],
      [
        ['chambers', 'create', '--from-file', '-', '--address', '{"city":"Kiel"}'],
        { fromFile: '-', address: '{"city":"Kiel"}' },
      ],
    ],
    refuses: [
      [['chambers', 'create', '--type', 'branch'], '--type'],
      [['chambers', 'create', '--address-field', 'city'], '--address-field'],
    ],
  })
})
