// api: argv → options (the verb is mocked; its behaviour is in request.test.ts).
import { describe, vi } from 'vitest'
import { api } from '../../../src/commands/api/request.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/api/request.js', () => ({ api: vi.fn() }))

describe('api: argv → options', () => {
  argvCases(vi.mocked(api), {
    parses: [
      [['api', '/chambers'], { path: '/chambers' }],
      [
        ['api', '/chambers/ch_0001/members', '-f', 'name=Ada', '-F', 'age=3', '-F', 'ok=true'],
        {
          path: '/chambers/ch_0001/members',
          rawField: [['name', 'Ada']],
          field: [
            ['age', '3'],
            ['ok', 'true'],
          ],
        },
      ],
      [
        ['api', '-X', 'PATCH', '/x', '--input', '-', '-H', 'A: 1', '-H', 'B: 2', '-i'],
        { path: '/x', method: 'PATCH', input: '-', header: ['A: 1', 'B: 2'], include: true },
      ],
      [['api', '/chambers', '--paginate'], { path: '/chambers', paginate: true }],
    ],
    refuses: [
      [['api'], "missing required argument 'path'"],
      [['api', '/x', '-f', 'novalue'], '-f'],
    ],
  })
})
