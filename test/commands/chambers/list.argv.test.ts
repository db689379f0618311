// chambers list: argv → options (the verb is mocked; its behaviour is in list.test.ts).
import { describe, vi } from 'vitest'
import { list } from '../../../src/commands/chambers/list.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/chambers/list.js', () => ({ list: vi.fn() }))

describe('chambers list: argv → options', () => {
  argvCases(vi.mocked(list), {
    parses: [
      [['chambers', 'list'], {}],
      [
        ['chambers', 'ls', '--type', 'hq', '--status', 'active', '--sort', '-name'],
        { type: 'hq', status: 'active', sort: '-name' },
      ],
      [['chambers', 'list', '--page', '2', '--per-page', '50'], { page: 2, perPage: 50 }],
      [['chambers', 'list', '--all', '--limit', '5'], { all: true, limit: 5 }],
      // Global options are not the verb's.
      [['--json', 'chambers', 'list', '--sandbox'], {}],
    ],
    refuses: [
      [['chambers', 'list', '--type', 'branch'], '--type'],
      [['chambers', 'list', '--per-page', '101'], '--per-page'],
      [['chambers', 'list', '--page', '0'], '--page'],
      [['chambers', 'list', 'ch_0001'], 'too many arguments'],
    ],
  })
})
