// A server's answer nested absurdly deep (10,000 levels) is a clear exit 1 naming the limit, in
// every format (JSON, --jq, ndjson, a table, a record view), never "Maximum call stack size
// exceeded"; an answer within the limit is printed as it came.
import { describe, expect, it } from 'vitest'
import { MAX_ANSWER_DEPTH } from '../../src/api/json-text.js'
import { runMain } from '../helpers/run-main.js'
import { useTempDirs } from '../helpers/sandbox.js'
import { useFakeApi } from '../helpers/fake-api.js'

const tempDir = useTempDirs('chamberctl-depth-')

// `{"a":{"a":…1…}}`: an object `levels` deep, written out, since JSON.stringify could not.
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`

// The depth of the `extra` field each record carries, per request.
let extraLevels = 10_000
const api = useFakeApi({
  token: { access_token: 'tok-depth-1', token_type: 'Bearer', expires_in: 3600 },
  answer: ({ path }) => {
    const record = `{"id":"ch_1","name":"Deep","extra":${nested(extraLevels)}}`
    return {
      body: path.startsWith('/v2/chambers/')
        ? record
        : `{"data":[${record}],"meta":{"current_page":1,"per_page":20,"total":1}}`,
    }
  },
})

function run(args: string[], tty: boolean) {
  return runMain(args, {
    stdoutIsTTY: tty,
    stdoutWidth: 100,
    env: {
      CHAMBERCTL_CONFIG_DIR: tempDir(),
      CHAMBERCTL_BASE_URL: api().baseUrl(),
      CHAMBERCTL_CLIENT_ID: 'ci',
      CHAMBERCTL_CLIENT_SECRET: 'secret-depth',
    },
  })
}

// Each format, and whether it shows the nested field (tables and TSV show their columns only).
const CASES: [string, string[], { tty: boolean; shows: boolean }][] = [
  ['list --json', ['chambers', 'list', '--json'], { tty: false, shows: true }],
  [
    'list --jq',
    ['chambers', 'list', '--json', '--jq', '.[] | [.name, .extra]'],
    { tty: false, shows: true },
  ],
  ['list -o ndjson', ['chambers', 'list', '-o', 'ndjson'], { tty: false, shows: true }],
  ['list, a table', ['chambers', 'list'], { tty: true, shows: false }],
  ['list, TSV', ['chambers', 'list'], { tty: false, shows: false }],
  ['get, a record view', ['chambers', 'get', 'ch_1'], { tty: true, shows: false }],
  ['get --json', ['chambers', 'get', 'ch_1', '--json'], { tty: false, shows: true }],
]

describe('an answer nested 10,000 levels deep', () => {
  it.each(CASES)('%s: exit 1 naming the limit, nothing on stdout', async (_, args, { tty }) => {
    extraLevels = 10_000
    const { code, stdout, stderr } = await run(args, tty)
    expect(stderr).not.toMatch(/call stack/i)
    expect(stderr.split('\n')[0]).toBe(
      `error: the server's answer is nested more than ${MAX_ANSWER_DEPTH} levels deep`,
    )
    expect(code).toBe(1)
    expect(stdout).toBe('')
  })
})

describe('an answer nested as deep as the limit allows', () => {
  // The list answer, its data and the record take three levels of their own.
  it.each(CASES)('%s: printed', async (_, args, { tty, shows }) => {
    extraLevels = MAX_ANSWER_DEPTH - 3
    const { code, stdout, stderr } = await run(args, tty)
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(stdout).toContain('Deep')
    if (shows) expect(stdout).toContain(`${'{"a":'.repeat(MAX_ANSWER_DEPTH - 3)}1`)
  })
})
