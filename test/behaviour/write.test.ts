// What the write verbs (chambers create, members add, one or in bulk) do alike: refused on a v1
// base URL before any request; Ctrl-C at a prompt sends nothing. Each verb's own behaviour is in
// test/commands/chambers/create.test.ts and test/commands/members/add.test.ts.
import { describe, expect, it } from 'vitest'
import { KEY, finishes } from '../helpers/session.js'
import {
  CHAMBER_POSTS,
  MEMBER_POSTS,
  memberRows,
  screenLines,
  toNdjson,
  useWriteSandbox,
} from '../helpers/writes.js'

const { sandbox, run, posts, interactive } = useWriteSandbox()

describe('a v1 base URL', () => {
  it.each([
    ['chambers create', ['chambers', 'create', '--name', 'X', '--type', 'hq', '--address', '{}']],
    ['members add', ['members', 'add', 'ch_0001', '--name', 'X', '--email', 'x@example.com']],
    ['members add (bulk)', ['members', 'add', 'ch_0001', '--from-file', '-']],
  ])('refuses %s before any request, exit 2', async (what, args) => {
    const { code, stdout, stderr } = await run(args, {
      env: { CHAMBERCTL_BASE_URL: sandbox().v1 },
      stdin: toNdjson(memberRows(2, 'v1')),
    })
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe(
      `error: ${what.replace(' (bulk)', '')} needs API v2, but ${sandbox().v1} is API v1; ` +
        'use a /v2 base URL\n',
    )
    expect(sandbox().requests).toEqual([])
  })
})

describe('interactive prompts on a terminal', () => {
  it.each([
    ['chambers create', ['chambers', 'create'], /\? Name/, CHAMBER_POSTS],
    ['members add', ['members', 'add', 'ch_0001', '--name', 'X'], /\? E-mail/, MEMBER_POSTS],
  ])('%s: Ctrl-C at a prompt exits 130 and sends nothing', async (_, args, prompt, sent) => {
    const { session, prompts } = interactive(args)
    await prompts.answer(prompt, `typed half${KEY.ctrlC}`)
    const { code, stdout, stderr } = await finishes(session)
    expect(code).toBe(130)
    expect(stdout).toBe('')
    expect(screenLines(stderr).at(-1)).toBe('error: interrupted')
    expect(posts(sent)).toEqual([])
  })
})
