// The rules of a bulk run (contract §3 "Bulk runs") in-process against a real sandbox: the
// target is checked before the first row, the re-run ladder (a plain re-run, --resume,
// --skip-existing) after a run whose only failure the server refused for good, --resume against
// a sandbox replaced on the same port, and seed's note on names the server already has. Every
// case counts the records on the server afterwards.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { NOW, credentialsEnv, openSandbox, useTempDirs } from '../helpers/sandbox.js'
import { summaryLine, until, lines, ndjson } from '../helpers/output.js'
import { useDemoSandbox, startSession } from '../helpers/run-main.js'
import type { SandboxFixture } from '../helpers/sandbox.js'
import { SandboxReader } from '../helpers/session.js'

const { sandbox, run, configDir } = useDemoSandbox()
const tempDir = useTempDirs('chamberctl-bulk-')
const reader = () => new SandboxReader(sandbox().sandbox)

beforeEach(() => sandbox().reset())

type Result = { row: number; status: string; id?: string; error?: { code: string } }

const posts = (fixture = sandbox()) =>
  fixture.requests.filter((r) => r.method === 'POST' && !r.path.endsWith('/auth/token'))

function membersFile(emails: string[]): string {
  const file = path.join(tempDir(), 'members.csv')
  const rows = emails.map((email, i) => `Member ${i},${email},standard`)
  writeFileSync(file, `name,email,membership_type\n${rows.join('\n')}\n`)
  return file
}

const tagged = (count: number, tag: string) =>
  Array.from({ length: count }, (_, i) => `${tag}${i}@bulk.test`)

async function emailsIn(chamber: string, fixture = sandbox()): Promise<string[]> {
  const members = await new SandboxReader(fixture.sandbox).members(chamber)
  return members.map((m) => String(m.email)).sort()
}

describe('the target is checked before the first row', () => {
  it('members add --from-file into a chamber that does not exist: exit 3, nothing sent', async () => {
    const file = membersFile(tagged(50, 'missing'))
    const { code, stdout, stderr } = await run(['members', 'add', 'ch_9999', '--from-file', file])
    expect(code).toBe(3)
    expect(stdout).toBe('')
    expect(stderr).toBe(`error: chamber ch_9999 not found at ${sandbox().v2}; nothing was sent\n`)
    expect(posts()).toEqual([])
  })

  it('seed with an hq_id the server does not know: exit 3 naming its path, nothing sent', async () => {
    const before = (await reader().chambers()).length
    const file = path.join(tempDir(), 'fixture.json')
    writeFileSync(
      file,
      JSON.stringify({
        chambers: [
          { key: 'a', name: 'Checked HQ', type: 'hq', address: {} },
          { key: 'b', name: 'Checked branch', type: 'subsidiary', hq_id: 'ch_9999', address: {} },
        ],
      }),
    )
    const { code, stderr } = await run(['seed', file])
    expect(code).toBe(3)
    expect(stderr).toBe(
      `error: chambers[1].hq_id: chamber ch_9999 not found at ${sandbox().v2}; nothing was sent\n`,
    )
    expect(posts()).toEqual([])
    expect(await reader().chambers()).toHaveLength(before)
  })
})

describe('after a run whose only failure the server refused for good', () => {
  it('advises no --resume; a plain re-run is refused; --resume and --skip-existing send nothing more', async () => {
    const chamber = await reader().emptyChamber('Ladder')
    const old = ['--name', 'Old', '--email', 'dup@bulk.test', '--membership-type', 'standard']
    expect((await run(['members', 'add', chamber, ...old])).code).toBe(0)
    const emails = ['a@bulk.test', 'dup@bulk.test', 'b@bulk.test']
    const file = membersFile(emails)
    const args = ['members', 'add', chamber, '--from-file', file]
    sandbox().reset()

    const first = await run(args)
    expect(first.code).toBe(1)
    const rows = ndjson<Result>(first.stdout)
    expect(rows.map((r) => r.status)).toEqual(['created', 'failed', 'created'])
    expect(rows[1]!.error).toMatchObject({ status: 422 })
    // The duplicate cannot succeed whatever is sent again: no line advises --resume.
    expect(lines(first.stderr)).toEqual([expect.stringMatching(summaryLine('2 created, 1 failed'))])
    expect(posts()).toHaveLength(3)
    expect(await emailsIn(chamber)).toEqual([...emails].sort())

    const plain = await run(args)
    expect(plain.code).toBe(2)
    expect(plain.stderr).toBe(
      `error: an earlier run of this input against chamber ${chamber} at ${sandbox().v2} ` +
        'finished with failures (2 created, 1 failed); run the same command with --resume to ' +
        'continue it, or with --skip-existing to send only the rows not already on the server\n',
    )
    expect(posts()).toHaveLength(3)

    const resumed = await run([...args, '--resume'])
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(lines(resumed.stderr)[0]).toBe(
      `Nothing to resume: the earlier run of this input against chamber ${chamber} at ` +
        `${sandbox().v2} finished; sending only the rows not already on the server, as ` +
        '--skip-existing does',
    )
    expect(ndjson<Result>(resumed.stdout).map((r) => r.status)).toEqual(Array(3).fill('skipped'))

    const skipping = await run([...args, '--skip-existing'])
    expect(skipping.code, skipping.stderr).toBe(0)
    expect(ndjson<Result>(skipping.stdout).map((r) => r.status)).toEqual(Array(3).fill('skipped'))
    expect(posts()).toHaveLength(3)
    expect(await emailsIn(chamber)).toEqual([...emails].sort())
  })

  it('--resume with no earlier run at all sends what the server lacks, exit 0', async () => {
    const chamber = await reader().emptyChamber('No earlier run')
    sandbox().reset()
    const file = membersFile(tagged(3, 'fresh'))
    const { code, stderr } = await run(['members', 'add', chamber, '--from-file', file, '--resume'])
    expect(code, stderr).toBe(0)
    expect(lines(stderr)[0]).toMatch(/^Nothing to resume: no unfinished run of this input/)
    expect(posts()).toHaveLength(3)
    expect(await emailsIn(chamber)).toEqual(tagged(3, 'fresh').sort())
  })
})

describe('the counts of a run, its re-run refusal and --skip-existing, in one vocabulary', () => {
  it('an invalid row is counted invalid, not failed, in the summary and in the refusal', async () => {
    const chamber = await reader().emptyChamber('Vocabulary')
    const old = ['--name', 'Old', '--email', 'dup@words.test', '--membership-type', 'standard']
    expect((await run(['members', 'add', chamber, ...old])).code).toBe(0)
    const file = membersFile(['a@words.test', 'not-an-address', 'dup@words.test', 'b@words.test'])
    const args = ['members', 'add', chamber, '--from-file', file]

    const first = await run(args)
    expect(first.code).toBe(1)
    expect(ndjson<Result>(first.stdout).map((r) => r.status)).toEqual([
      'created',
      'failed',
      'failed',
      'created',
    ])
    expect(lines(first.stderr)).toEqual([
      expect.stringMatching(summaryLine('2 created, 1 invalid, 1 failed')),
    ])
    const plain = await run(args)
    expect(plain.code).toBe(2)
    expect(plain.stderr).toContain('finished with failures (2 created, 1 invalid, 1 failed)')

    // Everything there: every row skipped as existing (the invalid one still invalid).
    const skipping = await run([...args, '--skip-existing'])
    expect(skipping.code).toBe(1)
    expect(lines(skipping.stderr)).toEqual([
      expect.stringMatching(summaryLine('3 skipped as existing, 1 invalid')),
    ])
  })
})

describe('--resume against a replaced server', () => {
  it('confirms each recorded creation and sends again what the new server lacks: every row once', async () => {
    const rows = 300
    const emails = tagged(rows, 'replaced')
    const file = membersFile(emails)
    const dir = configDir()
    const args = ['members', 'add', 'ch_0003', '--from-file', file, '--concurrency', '4']
    let old: SandboxFixture | undefined = await openSandbox({ now: () => NOW })
    let fresh: SandboxFixture | undefined
    try {
      const env = { CHAMBERCTL_CONFIG_DIR: dir, ...credentialsEnv(old) }
      const first = startSession(args, { env })
      await until(() => String(posts(old).length), /^(?:[2-9]\d|\d{3,})$/)
      first.interrupt()
      const ended = await first.done
      expect(ended.code).toBe(130)
      const created = ndjson<Result>(ended.stdout).filter((r) => r.status === 'created').length
      expect(created).toBeGreaterThanOrEqual(20)
      expect(created).toBeLessThan(rows)
      expect((await emailsIn('ch_0003', old)).filter((e) => e.startsWith('replaced'))).toHaveLength(
        created,
      )

      // The CI job's sandbox is restarted on the same port: a new server, none of those rows.
      const port = old.sandbox.port
      await old.close()
      old = undefined
      fresh = await openSandbox({ now: () => NOW, port })
      const resumed = await run([...args, '--resume'], { env: credentialsEnv(fresh) })
      expect(resumed.code, resumed.stderr).toBe(0)
      expect(resumed.stderr).toContain(
        `${created} rows created earlier were not on the server (was it replaced?): sent again\n`,
      )
      expect(ndjson<Result>(resumed.stdout).map((r) => r.status)).toEqual(
        Array(rows).fill('created'),
      )
      const held = (await emailsIn('ch_0003', fresh)).filter((e) => e.startsWith('replaced'))
      expect(held).toEqual([...emails].sort())
      expect(posts(fresh).filter((r) => r.path.endsWith('/members'))).toHaveLength(rows)
    } finally {
      await old?.close()
      await fresh?.close()
    }
  })
})

describe("seed's note on names the server already has", () => {
  const fixture = (name: string) =>
    JSON.stringify({ chambers: [{ key: 'k', name, type: 'hq', address: {} }] })

  it('says so in one line and creates it; --skip-existing skips it without a note', async () => {
    const [existing] = await reader().chambers()
    const name = String(existing!.name)
    const file = path.join(tempDir(), 'fixture.json')
    writeFileSync(file, fixture(`  ${name.toUpperCase()} `))
    const named = async () =>
      (await reader().chambers()).filter(
        (c) => String(c.name).trim().toLowerCase() === name.toLowerCase(),
      )
    const before = (await named()).length

    const { code, stderr } = await run(['seed', file])
    expect(code, stderr).toBe(0)
    expect(lines(stderr)[0]).toBe(
      `note: the server already has a chamber named "${name.toUpperCase()}"; creating it ` +
        'again (--skip-existing skips chambers that exist)',
    )
    expect(await named()).toHaveLength(before + 1)

    const skipped = await run(['seed', file, '--skip-existing'])
    expect(skipped.code, skipped.stderr).toBe(0)
    expect(skipped.stderr).not.toContain('note:')
    expect(await named()).toHaveLength(before + 1)
  })
})
