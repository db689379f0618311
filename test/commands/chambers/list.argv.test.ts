// chambers list: argv → options, the flag rules included (the verb is mocked, its toOptions is
// not; its behaviour is in list.test.ts).
import { describe, vi } from 'vitest'
import { list } from '../../../src/commands/chambers/list.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/chambers/list.js', async (real) => ({
  ...(await real<object>()),
  list: vi.fn(),
}))

describe('chambers list: argv → options', () => {
  argvCases(vi.mocked(list), {
    parses: [
      [['chambers', 'list'], { paging: {}, filters: {} }],
      [
        ['chambers', 'ls', '--type', 'hq', '--status', 'active', '--sort', '-name'],
        { paging: {}, filters: { type: 'hq', status: 'active', sort: '-name' } },
      ],
      [
        ['chambers', 'list', '--page', '2', '--per-page', '50'],
        { paging: { page: 2, perPage: 50 }, filters: {} },
      ],
      [
        ['chambers', 'list', '--all', '--limit', '5'],
        { paging: { all: true, limit: 5 }, filters: {} },
      ],
      // Global options are not the verb's.
      [['--json', 'chambers', 'list', '--sandbox'], { paging: {}, filters: {} }],
    ],
    refuses: [
      [['chambers', 'list', '--type', 'branch'], '--type'],
      [['chambers', 'list', '--per-page', '101'], '--per-page'],
      [['chambers', 'list', '--page', '0'], '--page'],
      [['chambers', 'list', 'ch_0001'], 'too many arguments'],
      [['chambers', 'list', '--all', '--page', '2'], '--all walks every page'],
      [['chambers', 'list', '--sort', '-nme'], '--sort -nme: did you mean -name?'],
      [['chambers', 'list', '--fields', 'id,nmae'], '--fields: chambers have no field "nmae"'],
    ],
  })
})
