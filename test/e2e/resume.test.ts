// Bulk runs that end early and are continued with --resume, with the built binary: killed with
// SIGKILL at random moments, rows whose connection dropped, an unfinished journal that guards
// against sending everything again, and --skip-existing.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { credentialsEnv, useSandbox, useTempDirs } from '../helpers/sandbox.js'
import { summaryLine, ndjson } from '../helpers/output.js'
import type { SandboxFixture } from '../helpers/sandbox.js'
import { startFakeApi } from '../helpers/fake-api.js'
import { runCli, startCli } from '../helpers/run-cli.js'

const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-e2e-resume-')

type Result = { row: number; status: string; id?: string; email?: string }

function membersFile(dir: string, count: number, tag: string): string {
  const file = path.join(dir, 'members.csv')
  const rows = Array.from(
    { length: count },
    (_, i) => `Member ${i},${tag}${i}@resume.test,standard`,
  )
  writeFileSync(file, `name,email,membership_type\n${rows.join('\n')}\n`)
  return file
}

const createdPosts = (fixture: SandboxFixture, chamber: string) =>
  fixture.requests.filter(
    (r) => r.method === 'POST' && r.path === `/v2/chambers/${chamber}/members`,
  )

// The members of `chamber` whose e-mail is tagged, as the server holds them.
async function tagged(dir: string, chamber: string, tag: string): Promise<string[]> {
  const { code, stdout } = await runCli(
    ['members', 'list', chamber, '--all', '-o', 'ndjson', '--fields', 'email'],
    { configDir: dir, env: credentialsEnv(sandbox()) },
  )
  expect(code).toBe(0)
  return ndjson<{ email: string }>(stdout)
    .map((m) => m.email)
    .filter((email) => email.startsWith(tag))
}

// Runs the CLI and kills it with SIGKILL as soon as `now()` holds (checked every millisecond).
async function killWhen(args: string[], dir: string, env: NodeJS.ProcessEnv, now: () => boolean) {
  const run = startCli(args, { configDir: dir, env, timeoutMs: 60_000 })
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (now() || run.child.exitCode !== null) {
        clearInterval(check)
        run.child.kill('SIGKILL')
        resolve()
      }
    }, 1)
    run.exited.catch(reject)
  })
  return run.exited
}

// A proxy that drops the connection of the POSTs `drops` picks (by their count from 1) before
// they reach the sandbox, until healed.
async function droppingProxy(drops: (n: number) => boolean) {
  let seen = 0
  let dropping = true
  const proxy = await startFakeApi({
    upstream: sandbox().sandbox.url,
    answer: ({ method }) => (dropping && method === 'POST' && drops(++seen) ? 'drop' : 'forward'),
  })
  return { ...proxy, heal: () => void (dropping = false) }
}

const journals = (dir: string) =>
  readdirSync(path.join(dir, 'journals')).filter((f) => f.endsWith('.ndjson'))

describe('--resume', () => {
  it('after SIGKILLs at random moments of a 5,000-row run, every row exists exactly once', async () => {
    const dir = tempDir()
    const rows = 5_000
    const file = membersFile(dir, rows, 'kill')
    const env = credentialsEnv(sandbox())
    const args = ['members', 'add', 'ch_0004', '--from-file', file, '--concurrency', '16']
    const posts = () => createdPosts(sandbox(), 'ch_0004').length
    const before = posts()
    const moments: number[] = []
    for (let kill = 0; kill < 3; kill++) {
      // A moment somewhere in what is left to send, as a count of creates the server has seen.
      const at = posts() + 1 + Math.floor(Math.random() * ((rows - (posts() - before)) / 3))
      moments.push(at - before)
      const killed = await killWhen(
        kill === 0 ? args : [...args, '--resume'],
        dir,
        env,
        () => posts() >= at,
      )
      expect(killed.signal, `killed at ${moments.join(', ')}`).toBe('SIGKILL')
    }

    const last = await runCli([...args, '--resume'], { configDir: dir, env, timeoutMs: 60_000 })
    expect(last.code, `killed at ${moments.join(', ')}: ${last.stderr}`).toBe(0)
    expect(last.stderr).toMatch(/^Resuming an earlier run \([\d,]+ created earlier[,)]/)
    const results = ndjson<Result>(last.stdout)
    expect(results).toHaveLength(rows)
    expect(results.every((r) => r.status === 'created' && r.id)).toBe(true)
    expect(new Set(results.map((r) => r.id)).size).toBe(rows)

    const emails = await tagged(dir, 'ch_0004', 'kill')
    expect(emails).toHaveLength(rows)
    expect(new Set(emails).size).toBe(rows)
    // Nothing was refused as a duplicate: no row was sent again once it existed.
    const sent = createdPosts(sandbox(), 'ch_0004').slice(before)
    expect(sent.filter((r) => r.status === 201)).toHaveLength(rows)
    expect(sent.filter((r) => r.status !== 201)).toEqual([])
    // Done: the journal is kept, finished, so that the same input again is a re-run.
    const [journal] = journals(dir)
    expect(journals(dir)).toHaveLength(1)
    const text = readFileSync(path.join(dir, 'journals', journal!), 'utf8')
    expect(text.endsWith('{"end":"finished"}\n')).toBe(true)
  }, 120_000)

  it('rows whose connection dropped are unknown; --resume checks them by e-mail and sends the rest', async () => {
    const dir = tempDir()
    const file = membersFile(dir, 12, 'drop')
    // Every third create is cut off before it reaches the server: the client cannot tell.
    const proxy = await droppingProxy((n) => n % 3 === 0)
    try {
      const env = credentialsEnv(sandbox(), proxy.baseUrl('v2'))
      const args = ['members', 'add', 'ch_0005', '--from-file', file, '--concurrency', '1']
      const first = await runCli(args, { configDir: dir, env })
      expect(first.code).toBe(5)
      const statuses = ndjson<Result>(first.stdout).map((r) => r.status)
      expect(statuses.filter((s) => s === 'unknown')).toHaveLength(4)
      expect(statuses.filter((s) => s === 'created')).toHaveLength(8)
      expect(first.stderr).toContain(
        'To continue, run the same command with --resume: it sends only the 4 rows not yet created\n',
      )

      // Without --resume the same input is refused before anything is sent.
      const posts = createdPosts(sandbox(), 'ch_0005').length
      const again = await runCli(args, { configDir: dir, env })
      expect(again.code).toBe(2)
      expect(again.stderr).toMatch(
        /^error: an earlier run of this input against chamber ch_0005 at \S+ finished with failures \(8 created, 4 unknown\); run the same command with --resume to continue it, or with --skip-existing to send only the rows not already on the server\n$/,
      )
      expect(createdPosts(sandbox(), 'ch_0005')).toHaveLength(posts)

      proxy.heal()
      const resumed = await runCli([...args, '--resume'], { configDir: dir, env })
      expect(resumed.code, resumed.stderr).toBe(0)
      expect(resumed.stderr).toContain(
        'Resuming an earlier run (8 created earlier, 4 unknown): each of these is looked up on the server first\n',
      )
      // What this run created, and what the earlier one had: the rows' status is `created` alike.
      expect(resumed.stderr).toMatch(/^4 created, 8 created earlier in \d+\.\d s$/m)
      expect(ndjson<Result>(resumed.stdout).map((r) => r.status)).toEqual(Array(12).fill('created'))
      // Only the four that never arrived were sent.
      expect(createdPosts(sandbox(), 'ch_0005')).toHaveLength(posts + 4)
      expect(await tagged(dir, 'ch_0005', 'drop')).toHaveLength(12)

      // Nothing left to continue: --resume sends what the server lacks, here nothing.
      const nothing = await runCli([...args, '--resume'], { configDir: dir, env })
      expect(nothing.code, nothing.stderr).toBe(0)
      expect(nothing.stderr).toMatch(
        /^Nothing to resume: the earlier run of this input against chamber ch_0005 at \S+ finished; sending only the rows not already on the server, as --skip-existing does\n/,
      )
      expect(ndjson<Result>(nothing.stdout).map((r) => r.status)).toEqual(Array(12).fill('skipped'))
      expect(createdPosts(sandbox(), 'ch_0005')).toHaveLength(posts + 4)
    } finally {
      await proxy.close()
    }
  })

  it('is for bulk runs only', async () => {
    const { code, stderr } = await runCli(
      [
        'members',
        'add',
        'ch_0001',
        '--name',
        'A',
        '--email',
        'a@b.co',
        '--membership-type',
        's',
        '--resume',
      ],
      { configDir: tempDir(), env: credentialsEnv(sandbox()) },
    )
    expect(code).toBe(2)
    expect(stderr).toBe('error: --resume is for bulk runs: --from-file with many rows\n')
  })
})

describe('seed --resume', () => {
  const membersOf = (count: number, name: string, email: string) =>
    Array.from({ length: count }, (_, i) => ({
      name: `${name} ${i}`,
      email: `${email}${i}@resume.test`,
      membership_type: 'standard',
    }))
  const fixture = (tag: string, members: number) =>
    JSON.stringify({
      chambers: [
        {
          key: 'hq',
          name: `Resume HQ ${tag}`,
          type: 'hq',
          address: { city: 'Berlin' },
          members: membersOf(members, 'HQ member', `${tag}-hq`),
        },
        {
          key: 'branch',
          name: `Resume branch ${tag}`,
          type: 'subsidiary',
          hq: 'hq',
          address: { city: 'Potsdam' },
          members: membersOf(members, 'Branch member', `${tag}-br`),
        },
      ],
    })
  type SeedReport = {
    chambers: Record<string, { id: string; status: string }>
    members: { email: string; id: string; status: string }[]
    summary: Record<string, number>
  }
  const seedPosts = () =>
    sandbox().requests.filter((r) => r.method === 'POST' && /^\/v2\/chambers(\/|$)/.test(r.path))

  it('after a SIGKILL at a random moment, creates every record exactly once', async () => {
    const dir = tempDir()
    const tag = `kill${Date.now()}`
    const file = path.join(dir, 'fixture.json')
    writeFileSync(file, fixture(tag, 150))
    const env = credentialsEnv(sandbox())
    const before = seedPosts().length
    const at = before + 2 + Math.floor(Math.random() * 250)
    const killed = await killWhen(['seed', file], dir, env, () => seedPosts().length >= at)
    expect(killed.signal, `killed at ${at - before}`).toBe('SIGKILL')

    const last = await runCli(['seed', file, '--resume', '--json'], { configDir: dir, env })
    expect(last.code, `killed at ${at - before}: ${last.stderr}`).toBe(0)
    const report = JSON.parse(last.stdout) as SeedReport
    // What the killed run created (at least the two POSTs the server saw) is created earlier.
    const { created = 0, created_earlier = 0, ...others } = report.summary
    expect(created + created_earlier).toBe(302)
    expect(created_earlier).toBeGreaterThanOrEqual(2)
    expect(others).toEqual({ skipped: 0, invalid: 0, failed: 0, unknown: 0, not_sent: 0 })
    const sent = seedPosts().slice(before)
    expect(sent.filter((r) => r.status !== 201)).toEqual([])
    expect(sent).toHaveLength(302)
    const hq = report.chambers.hq!.id
    const branch = report.chambers.branch!.id
    expect(await tagged(dir, hq, `${tag}-hq`)).toHaveLength(150)
    expect(new Set(await tagged(dir, branch, `${tag}-br`)).size).toBe(150)
    expect(await tagged(dir, branch, `${tag}-br`)).toHaveLength(150)
  })

  it('records whose connection dropped are looked up, the rest sent, and the run says how to go on', async () => {
    const dir = tempDir()
    const tag = `drop${Date.now()}`
    const file = path.join(dir, 'fixture.json')
    writeFileSync(file, fixture(tag, 4))
    const proxy = await droppingProxy((n) => n % 4 === 2)
    try {
      const env = credentialsEnv(sandbox(), proxy.baseUrl('v2'))
      const args = ['seed', file, '--json', '--concurrency', '1']
      const first = await runCli(args, { configDir: dir, env })
      expect(first.code).toBe(5)
      const { unknown = 0, not_sent = 0 } = (JSON.parse(first.stdout) as SeedReport).summary
      expect(unknown).toBeGreaterThan(0)
      expect(first.stderr).toContain(
        `To continue, run the same command with --resume: it sends only the ${unknown + not_sent} records not yet created\n`,
      )
      proxy.heal()
      const before = seedPosts().length
      const resumed = await runCli([...args, '--resume'], { configDir: dir, env })
      expect(resumed.code, resumed.stderr).toBe(0)
      const report = JSON.parse(resumed.stdout) as SeedReport
      expect(report.summary).toEqual({
        created: unknown + not_sent,
        created_earlier: 10 - unknown - not_sent,
        skipped: 0,
        invalid: 0,
        failed: 0,
        unknown: 0,
        not_sent: 0,
      })
      // The dropped requests never reached the server: exactly those, and the records that
      // waited on them, are sent now.
      expect(seedPosts().length - before).toBe(unknown + not_sent)
      expect(await tagged(dir, report.chambers.branch!.id, tag)).toHaveLength(4)
    } finally {
      await proxy.close()
    }
  })
})

describe('members add --skip-existing', () => {
  it('skips rows whose e-mail the chamber already has, whatever its letter case', async () => {
    const dir = tempDir()
    const env = credentialsEnv(sandbox())
    const file = membersFile(dir, 3, 'skip')
    expect(
      (await runCli(['members', 'add', 'ch_0006', '--from-file', file], { configDir: dir, env }))
        .code,
    ).toBe(0)
    const more = path.join(dir, 'more.csv')
    writeFileSync(
      more,
      'name,email,membership_type\nA,SKIP1@resume.test,standard\nB,skip-new@resume.test,standard\n',
    )
    const posts = createdPosts(sandbox(), 'ch_0006').length
    const { code, stdout, stderr } = await runCli(
      ['members', 'add', 'ch_0006', '--from-file', more, '--skip-existing'],
      { configDir: dir, env },
    )
    expect(code).toBe(0)
    expect(ndjson<Result>(stdout).map((r) => [r.row, r.status])).toEqual([
      [1, 'skipped'],
      [2, 'created'],
    ])
    expect(stderr).toMatch(summaryLine('1 created, 1 skipped as existing'))
    expect(createdPosts(sandbox(), 'ch_0006')).toHaveLength(posts + 1)
  })
})
