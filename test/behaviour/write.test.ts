// What every write verb does alike, whatever it creates: refused on a v1 base URL before any
// request, with one record or many; Ctrl-C at a prompt sends nothing. The verbs are the command
// tree's (tagged `writes` where they are registered), so a new one is covered here without a line
// of this file. Each verb's own behaviour is in test/commands/<noun>/.
import { describe, expect, it } from 'vitest'
import { KEY, finishes } from '../helpers/session.js'
import {
  inputArgs,
  sampleInput,
  screenLines,
  useWriteSandbox,
  writeVerbs,
} from '../helpers/writes.js'

const { sandbox, run, posts, interactive } = useWriteSandbox()
const VERBS = writeVerbs()
// Every POST but the token's.
const WRITES = /^\/v2\/(?!auth\/)/

it('finds the write verbs in the command tree', () => {
  expect(VERBS.map((verb) => verb.name)).toEqual(
    expect.arrayContaining(['chambers create', 'members add', 'seed']),
  )
})

describe('a v1 base URL', () => {
  const cases = VERBS.flatMap((verb) => [
    { verb, what: `${verb.name} (one record)`, stdin: sampleInput(verb) },
    ...(verb.fromFile
      ? [{ verb, what: `${verb.name} (many)`, stdin: `${sampleInput(verb)}\n`.repeat(2) }]
      : []),
  ])
  it.each(cases)('refuses $what before any request, exit 2', async ({ verb, stdin }) => {
    const { code, stdout, stderr } = await run(inputArgs(verb, '-'), {
      env: { CHAMBERCTL_BASE_URL: sandbox().v1 },
      stdin,
    })
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe(
      `error: ${verb.name} needs API v2, but ${sandbox().v1} is API v1; use a /v2 base URL\n`,
    )
    expect(sandbox().requests).toEqual([])
  })
})

describe('interactive prompts on a terminal', () => {
  const prompting = VERBS.filter((verb) => verb.prompts)
  it.each(prompting)('$name: Ctrl-C at a prompt exits 130 and sends nothing', async (verb) => {
    const { session, prompts } = interactive([
      ...verb.path,
      ...(verb.underChamber ? ['ch_0001'] : []),
    ])
    await prompts.answer(/\? \S/, `typed half${KEY.ctrlC}`)
    const { code, stdout, stderr } = await finishes(session)
    expect(code).toBe(130)
    expect(stdout).toBe('')
    expect(screenLines(stderr).at(-1)).toBe('error: interrupted')
    expect(posts(WRITES)).toEqual([])
  })
})
