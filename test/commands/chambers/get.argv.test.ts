// chambers get: argv → options, the flag rules included (the verb is mocked, its toOptions is
// not; its behaviour is in get.test.ts).
import { describe, vi } from 'vitest'
import { get } from '../../../src/commands/chambers/get.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/chambers/get.js', async (real) => ({
  ...(await real<object>()),
  get: vi.fn(),
}))

describe('chambers get: argv → options', () => {
  argvCases(vi.mocked(get), {
    parses: [
      [['chambers', 'get', 'ch_0001'], { id: 'ch_0001' }],
      [['chambers', 'show', 'chm:9b/2e'], { id: 'chm:9b/2e' }],
      [
        ['chambers', 'view', 'ch_0001', '--include', 'members,events'],
        { id: 'ch_0001', include: ['members', 'events'] },
      ],
    ],
    refuses: [
      [['chambers', 'get'], "missing required argument 'id'"],
      [['chambers', 'get', 'a', 'b'], 'too many arguments'],
      [['chambers', 'get', '.'], 'chamber id "." cannot be . or ..'],
      [['chambers', 'get', 'ch_0001', '--include', 'staff'], '--include staff'],
      [['chambers', 'get', 'ch_0001', '--fields', 'nmae'], '--fields: chambers have no field'],
    ],
  })
})
