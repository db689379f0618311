// The built binary: `seed` of a YAML fixture and `api --paginate` against a sandbox in this
// process, with the exit codes a script sees.
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  BIG_CHAMBER,
  BIG_CHAMBER_MEMBERS,
  credentialsEnv,
  useSandbox,
  useTempDirs,
} from '../helpers/sandbox.js'
import { summaryLine, idsOf, lines } from '../helpers/output.js'
import { BODY_LIMIT } from '../../src/sandbox/http.js'
import { runCli } from '../helpers/run-cli.js'
import type { CliOptions } from '../helpers/run-cli.js'

const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-e2e-seed-')

function options(stdin?: string): CliOptions {
  return {
    configDir: tempDir(),
    env: credentialsEnv(sandbox()),
    stdin: stdin === undefined ? 'closed' : { text: stdin },
  }
}

const creates = () =>
  sandbox().requests.filter((r) => r.method === 'POST' && !r.path.endsWith('/auth/token'))

function fixture(tag: string): string {
  return `chambers:
  - key: branch
    name: ${tag} Branch
    type: subsidiary
    hq: main
    address: { city: Potsdam, postal_code: "14467" }
  - key: main
    name: ${tag} Main
    type: hq
    address: { city: Berlin }
    members:
      - { name: Ada Lovelace, email: ada@${tag}.example.com, membership_type: standard }
`
}

describe('seed (built)', () => {
  it('creates a YAML fixture (exit 0), then a re-run with --skip-existing creates nothing', async () => {
    const tag = `e2e${Date.now() % 100_000}`
    const file = path.join(tempDir(), 'fixture.yaml')
    writeFileSync(file, fixture(tag))
    sandbox().reset()
    const first = await runCli(['seed', file], options())
    expect(first.code, first.stderr).toBe(0)
    expect(first.stderr).toMatch(summaryLine('3 created'))
    expect(lines(first.stderr)).toHaveLength(1)
    const rows = lines(first.stdout).map((line) => line.split('\t'))
    expect(rows.map(([kind, key, , , , status]) => [kind, key, status])).toEqual([
      ['chamber', 'branch', 'created'],
      ['chamber', 'main', 'created'],
      ['member', 'main', 'created'],
    ])
    expect(creates()).toHaveLength(3)

    sandbox().reset()
    const again = await runCli(['seed', '-', '--skip-existing', '--json'], options(fixture(tag)))
    expect(again.code, again.stderr).toBe(0)
    const report = JSON.parse(again.stdout) as {
      chambers: Record<string, { id: string; status: string }>
      summary: Record<string, number>
    }
    expect(report.summary).toEqual({
      created: 0,
      created_earlier: 0,
      skipped: 3,
      invalid: 0,
      failed: 0,
      unknown: 0,
      not_sent: 0,
    })
    expect(report.chambers.main!.id).toBe(rows[1]![4])
    expect(report.chambers.branch!.id).toBe(rows[0]![4])
    expect(creates()).toEqual([])
  })

  it('exits 2 for an invalid fixture, listing the problem by path, and sends nothing', async () => {
    sandbox().reset()
    const broken = fixture('e2ebad').replace('hq: main', 'hq: nowhere')
    const { code, stdout, stderr } = await runCli(['seed', '-'], options(broken))
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/^error: stdin has 1 problem; nothing was sent\n/)
    expect(stderr).toMatch(/chambers\[0\]\.hq\s+no chamber with key nowhere in this file/)
    expect(sandbox().requests).toEqual([])
  })

  it('exits 1 when the server rejects a chamber, failing its dependants', async () => {
    const tag = `e2efail${Date.now() % 100_000}`
    // Address keys are free-form, so a huge one passes the local check; the sandbox answers 413.
    const huge = fixture(tag).replace('{ city: Berlin }', `{ notes: ${'x'.repeat(BODY_LIMIT)} }`)
    const { code, stdout, stderr } = await runCli(['seed', '-', '--json'], options(huge))
    expect(code).toBe(1)
    // A 413 is refused for good: nothing a --resume could send, so no line advises one.
    expect(lines(stderr)).toEqual([expect.stringMatching(summaryLine('3 failed'))])
    const report = JSON.parse(stdout) as {
      chambers: Record<string, { status: string; error: { code: string; message: string } }>
    }
    expect(report.chambers.branch).toMatchObject({
      status: 'failed',
      error: { code: 'dependency', message: 'not sent: the hq failed' },
    })
  })
})

describe('seed --report (built)', () => {
  it('is never the fixture, even when the fixture comes on stdin (< fixture.yaml)', async () => {
    const file = path.join(tempDir(), 'fixture.yaml')
    writeFileSync(file, fixture('e2estdin'))
    sandbox().reset()
    const stdin = openSync(file, 'r')
    try {
      const { code, stderr } = await runCli(['seed', '-', '--report', file], {
        ...options(),
        stdin,
      })
      expect(stderr).toBe(
        `error: --report ${file}: is the fixture being seeded (stdin); name another file; nothing ` +
          'was sent\n',
      )
      expect(code).toBe(2)
    } finally {
      closeSync(stdin)
    }
    expect(readFileSync(file, 'utf8')).toBe(fixture('e2estdin'))
    expect(sandbox().requests).toEqual([])
  })
})

describe('api (built)', () => {
  it('--paginate prints the 260 members of the big chamber as one JSON array (exit 0)', async () => {
    const { code, stdout, stderr } = await runCli(
      ['api', `/chambers/${BIG_CHAMBER}/members`, '--paginate'],
      options(),
    )
    expect(code, stderr).toBe(0)
    expect(stderr).toBe('')
    const records = JSON.parse(stdout) as { id: string; chamber_id: string }[]
    expect(records).toHaveLength(BIG_CHAMBER_MEMBERS)
    expect(new Set(idsOf(records)).size).toBe(BIG_CHAMBER_MEMBERS)
    expect(records.every((record) => record.chamber_id === BIG_CHAMBER)).toBe(true)
  })

  it('exits 3 for an unknown chamber, the body on stdout', async () => {
    const { code, stdout, stderr } = await runCli(['api', '/chambers/ch_9999'], options())
    expect(code).toBe(3)
    expect(JSON.parse(stdout)).toEqual({ error: 'chamber ch_9999 not found' })
    expect(lines(stderr)).toHaveLength(1)
  })
})
