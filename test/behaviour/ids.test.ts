// Ids go into URL paths as one segment each: ids a URL parser would fold into the path (`.`,
// `..`), empty ones, ones of only spaces and ones with control characters are refused before
// anything is sent (no token request either); any other id is percent-encoded whole.
import { beforeEach, describe, expect, it } from 'vitest'
import { useCommands } from '../helpers/run-main.js'
import { useSandbox } from '../helpers/sandbox.js'
import { inputArgs, sampleInput, writeVerbs } from '../helpers/writes.js'

const sandbox = useSandbox()
const { run } = useCommands(sandbox)

beforeEach(() => sandbox().reset())

type Case = [string, (id: string) => string[], string?]

// The write verbs that create records in a chamber are the command tree's, each with a whole
// record on stdin, sent and as a dry run.
const WRITES = writeVerbs()
  .filter((verb) => verb.underChamber)
  .flatMap((verb): Case[] => [
    [verb.name, (id) => inputArgs(verb, '-', id), sampleInput(verb)],
    [
      `${verb.name} --dry-run`,
      (id) => [...inputArgs(verb, '-', id), '--dry-run'],
      sampleInput(verb),
    ],
  ])

const COMMANDS: Case[] = [
  ['chambers get', (id) => ['chambers', 'get', id]],
  ['members list', (id) => ['members', 'list', id]],
  ...WRITES,
  ['events list', (id) => ['events', 'list', id]],
]

const BAD_IDS: [string, RegExp][] = [
  ['..', /chamber id "\.\." cannot be \. or \.\./],
  ['.', /chamber id "\." cannot be \. or \.\./],
  ['', /chamber id "" is empty/],
  ['   ', /chamber id " {3}" is only spaces/],
  ['ch_\u00070001', /chamber id "ch_\\u00070001" contains a control character/],
  ['ch_0001\n', /contains a control character/],
]

describe('ids as path segments', () => {
  it('takes the write verbs from the command tree', () => {
    expect(WRITES.map(([name]) => name)).toContain('members add')
  })

  for (const [name, args, stdin] of COMMANDS) {
    for (const [id, message] of BAD_IDS) {
      it(`${name} ${JSON.stringify(id)}: exit 2, nothing sent`, async () => {
        const { code, stdout, stderr } = await run(args(id), { stdin })
        expect(code, stderr).toBe(2)
        expect(stderr).toMatch(message)
        expect(stdout).toBe('')
        expect(sandbox().requests).toEqual([])
      })
    }
  }

  it('sends an id with a slash, a colon and dots as one encoded segment', async () => {
    for (const id of ['chm:9b/2e', '..x', 'a?b#c', '%2e%2e']) {
      sandbox().reset()
      const { code } = await run(['chambers', 'get', id])
      expect(code).toBe(3)
      const gets = sandbox().requests.filter((r) => r.method === 'GET')
      expect(gets.map((r) => r.path)).toEqual([`/v2/chambers/${encodeURIComponent(id)}`])
    }
  })
})
