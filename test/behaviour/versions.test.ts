// v2-only commands and flags against a /v1 base URL: refused with exit 2 before any request,
// naming both versions. The same commands work on v1 without them.
import { describe, expect, it } from 'vitest'
import { BIG_CHAMBER, CHAMBER_IDS, credentialsEnv, useSandbox } from '../helpers/sandbox.js'
import { useCommands } from '../helpers/run-main.js'
import { tsvColumn } from '../helpers/output.js'

const sandbox = useSandbox()
const { run } = useCommands(sandbox)
const v1 = () => ({ env: credentialsEnv(sandbox(), sandbox().v1) })

describe('v2-only use on a v1 base URL', () => {
  it.each([
    [['events', 'list', BIG_CHAMBER]],
    [['events', 'list', BIG_CHAMBER, '--status', 'past']],
    [['chambers', 'list', '--type', 'hq']],
    [['chambers', 'list', '--status', 'active']],
    [['chambers', 'list', '--sort', 'name']],
    [['members', 'list', BIG_CHAMBER, '--status', 'active']],
    [['members', 'list', BIG_CHAMBER, '--sort', '-joined_at']],
    [['chambers', 'get', BIG_CHAMBER, '--include', 'members,events']],
  ])('%j: exit 2, names v1 and v2, sends nothing', async (args) => {
    sandbox().reset()
    const { code, stdout, stderr } = await run(args, v1())
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(lines1(stderr)).toMatch(/^error: .*\bv1\b.*\bv2\b|^error: .*\bv2\b.*\bv1\b/)
    expect(sandbox().requests).toEqual([])
  })

  it('reports the refusal as JSON too with --json', async () => {
    const { code, stderr } = await run(['events', 'list', BIG_CHAMBER, '--json'], v1())
    expect(code).toBe(2)
    const json = JSON.parse(stderr.trim().split('\n').at(-1)!) as { error: { code: string } }
    expect(json.error).toMatchObject({ status: null, code: 'usage' })
  })

  it('still runs the v1 reads without v2-only flags', async () => {
    sandbox().reset()
    const list = await run(['chambers', 'list', '--per-page', '100'], v1())
    expect(list.code, list.stderr).toBe(0)
    expect(tsvColumn(list.stdout)).toEqual(CHAMBER_IDS)
    const get = await run(['chambers', 'get', 'ch_0002', '--json'], v1())
    expect(get.code).toBe(0)
    expect(JSON.parse(get.stdout)).toMatchObject({ id: 'ch_0002', type: 'hq' })
    const members = await run(['members', 'list', BIG_CHAMBER, '--limit', '120'], v1())
    expect(tsvColumn(members.stdout)).toHaveLength(120)
    expect(sandbox().requests.every((r) => r.path.startsWith('/v1/'))).toBe(true)
  })
})

function lines1(text: string): string {
  return text.split('\n')[0] ?? ''
}
