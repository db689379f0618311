// api: argv → options, the flag rules included (the verb is mocked, its toOptions is not; its
// behaviour is in request.test.ts).
import { describe, vi } from 'vitest'
import { api } from '../../../src/commands/api/request.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/api/request.js', async (real) => ({
  ...(await real<object>()),
  api: vi.fn(),
}))

// What a bare `api PATH` is handed, the path's query apart.
const GET = {
  method: 'GET',
  query: {},
  headers: {},
  rawField: [],
  field: [],
  paginate: false,
  include: false,
}

describe('api: argv → options', () => {
  argvCases(vi.mocked(api), {
    parses: [
      [['api', '/chambers'], { ...GET, path: '/chambers' }],
      [
        ['api', 'chambers/../members?page=2&per_page=5'],
        { ...GET, path: '/members', query: { page: '2', per_page: '5' } },
      ],
      // Fields make it a POST.
      [
        ['api', '/chambers/ch_0001/members', '-f', 'name=Ada', '-F', 'age=3', '-F', 'ok=true'],
        {
          ...GET,
          method: 'POST',
          path: '/chambers/ch_0001/members',
          rawField: [['name', 'Ada']],
          field: [
            ['age', '3'],
            ['ok', 'true'],
          ],
        },
      ],
      [
        ['api', '-X', 'patch', '/x', '--input', '-', '-H', 'A: 1', '-H', 'B: 2', '-i'],
        {
          ...GET,
          path: '/x',
          method: 'PATCH',
          input: '-',
          headers: { a: '1', b: '2' },
          include: true,
        },
      ],
      [['api', '/chambers', '--paginate'], { ...GET, path: '/chambers', paginate: true }],
    ],
    refuses: [
      [['api'], "missing required argument 'path'"],
      [['api', '/x', '-f', 'novalue'], '-f'],
      [['api', '/chambers', '-X', 'POST', '--paginate'], '--paginate works with GET only'],
      [['api', '/chambers', '-f', 'a=1', '--paginate'], '--paginate works with GET only'],
      [['api', '/chambers', '--paginate', '-i'], '-i shows one answer'],
      [['api', '/x', '--input', 'body.json', '-f', 'a=1'], '--input and -f/-F both give a body'],
      [['api', '/x', '-F', 'a=@-', '-F', 'b=@-'], '-F a=@- and -F b=@- would each read stdin'],
      [['api', '/x', '-X', 'FETCH'], '-X FETCH: use one of GET, POST'],
      [['api', 'https://example.org/x'], 'api takes a path under the base URL'],
      [['api', '/x\ty'], 'contains a control character'],
      [['api', '/x', '-H', 'no-colon'], "-H no-colon: expected 'Name: value'"],
    ],
  })
})
