// The built binary, one run per read command against a sandbox in this process, plus the exit
// codes and error lines a script sees.
import { execFileSync } from 'node:child_process'
import { closeSync, constants, openSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { closedPortUrl } from '../helpers/fake-api.js'
import {
  BIG_CHAMBER,
  CHAMBER_IDS,
  credentialsEnv,
  useSandbox,
  useTempDirs,
} from '../helpers/sandbox.js'
import { startGate } from '../helpers/gate.js'
import { lines, ndjson, tsvColumn, yamlDocuments } from '../helpers/output.js'
import { ROOT, runCli, startCli } from '../helpers/run-cli.js'
import type { CliOptions } from '../helpers/run-cli.js'

const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-e2e-')

// The sandbox's credentials in the environment, as a CI job would set them.
function withCredentials(env: NodeJS.ProcessEnv = {}): CliOptions {
  return { configDir: tempDir(), env: { ...credentialsEnv(sandbox()), ...env } }
}

// An expected failure: exactly one `error: ...` line on stderr, no stack trace.
function expectErrorLine(stderr: string, message: RegExp): void {
  expect(lines(stderr)).toHaveLength(1)
  expect(stderr).toMatch(/^error: /)
  expect(stderr).toMatch(message)
  expect(stderr).not.toMatch(/\bat .*\.js:\d+/)
}

describe('chamberctl (built)', () => {
  it("--version and version print package.json's version", async () => {
    const { version } = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as {
      version: string
    }
    const { code, stdout, stderr } = await runCli(['--version'], { configDir: tempDir() })
    expect(code).toBe(0)
    expect(stdout).toBe(`${version}\n`)
    expect(stderr).toBe('')
    const command = await runCli(['version'], { configDir: tempDir() })
    expect(command).toMatchObject({ code: 0, stdout, stderr: '' })
  })

  // --version writes to the descriptor itself (src/start/version.ts), not through process.stdout.
  it.skipIf(process.platform === 'win32')(
    '--version: quiet exit 0 when stdout has no reader, one line and exit 1 on /dev/full',
    async () => {
      // A FIFO whose only reader is gone before the CLI starts: its write fails with EPIPE.
      const fifo = path.join(tempDir(), 'stdout')
      execFileSync('mkfifo', [fifo])
      const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK)
      const writer = openSync(fifo, 'w')
      closeSync(reader)
      const full = openSync('/dev/full', 'w')
      try {
        const closed = await runCli(['--version'], { configDir: tempDir(), stdout: writer })
        expect(closed).toMatchObject({ code: 0, stderr: '' })
        const failed = await runCli(['--version'], { configDir: tempDir(), stdout: full })
        expect(failed.code).toBe(1)
        expect(failed.stderr).toBe(
          'error: cannot write to standard output: no space left on device (ENOSPC)\n',
        )
      } finally {
        closeSync(writer)
        closeSync(full)
      }
    },
  )

  it('quick start: `chambers list --sandbox` prints the 10 demo chambers as TSV', async () => {
    const { code, stdout, stderr } = await runCli(['chambers', 'list', '--sandbox'], {
      configDir: tempDir(),
    })
    expect(code, stderr).toBe(0)
    expect(stderr).toBe('')
    const rows = lines(stdout).map((line) => line.split('\t'))
    expect(rows.map((row) => row[0])).toEqual(CHAMBER_IDS)
    expect(rows.every((row) => row.length === 7)).toBe(true)
    expect(rows[0]!.slice(1, 3)).toEqual(['Berlin Chamber of Commerce', 'hq'])
  })

  it('chambers list --json', async () => {
    const { code, stdout } = await runCli(['chambers', 'list', '--json'], withCredentials())
    expect(code).toBe(0)
    const records = JSON.parse(stdout) as { id: string }[]
    expect(records.map((r) => r.id)).toEqual(CHAMBER_IDS)
  })

  it('chambers get --include members,events -o csv', async () => {
    const { code, stdout } = await runCli(
      ['chambers', 'get', BIG_CHAMBER, '--include', 'members,events', '-o', 'csv'],
      withCredentials(),
    )
    expect(code).toBe(0)
    expect(lines(stdout)).toEqual([
      'id,name,type,hq_id,status,address.city,created_at,members,events',
      'ch_0001,Berlin Chamber of Commerce,hq,,active,Berlin,2024-01-15T09:00:00.000Z,260,9',
    ])
  })

  it('members list streams --all as 260 NDJSON lines', async () => {
    const { code, stdout } = await runCli(
      ['members', 'list', BIG_CHAMBER, '--all', '-o', 'ndjson'],
      withCredentials(),
    )
    expect(code).toBe(0)
    const records = ndjson<{ id: string; chamber_id: string }>(stdout)
    expect(records).toHaveLength(260)
    expect(records[0]!.id).toBe('mb_000001')
    expect(records[259]!.id).toBe('mb_000260')
    expect(new Set(records.map((r) => r.id)).size).toBe(260)
  })

  it('members list --all -o yaml: 260 documents, the records of --all -o ndjson', async () => {
    const args = ['members', 'list', BIG_CHAMBER, '--all']
    const yaml = await runCli([...args, '-o', 'yaml'], withCredentials())
    expect(yaml.code, yaml.stderr).toBe(0)
    const nd = await runCli([...args, '-o', 'ndjson'], withCredentials())
    expect(yamlDocuments(yaml.stdout)).toEqual(ndjson(nd.stdout))
    expect(yamlDocuments(yaml.stdout)).toHaveLength(260)
  })

  it('members list -o ndjson writes the first page before the last one is answered', async () => {
    // The last page is held back until the test has seen the first records.
    const gate = await startGate(sandbox().sandbox, (_method, url) => url.includes('page=3'))
    try {
      const run = startCli(['members', 'list', BIG_CHAMBER, '--all', '-o', 'ndjson'], {
        configDir: tempDir(),
        env: credentialsEnv(sandbox(), gate.baseUrl('v2')),
      })
      await run.waitFor('stdout', /\n/)
      gate.open()
      const result = await run.exited
      expect(result.code, result.stderr).toBe(0)
      expect(lines(result.stdout)).toHaveLength(260)
      expect(gate.requests.filter((r) => r.path.includes('page=3'))).toHaveLength(1)
    } finally {
      gate.open()
      await gate.close()
    }
  })

  it('events list --status upcoming', async () => {
    const { code, stdout } = await runCli(
      ['events', 'list', BIG_CHAMBER, '--status', 'upcoming'],
      withCredentials(),
    )
    expect(code).toBe(0)
    expect(tsvColumn(stdout)).toEqual(['ev_0001', 'ev_0003', 'ev_0006', 'ev_0008'])
  })

  it('auth token prints a token the API accepts', async () => {
    const { code, stdout } = await runCli(['auth', 'token'], withCredentials())
    expect(code).toBe(0)
    const response = await fetch(`${sandbox().v2}/chambers/${BIG_CHAMBER}`, {
      headers: { authorization: `Bearer ${stdout.trim()}` },
    })
    expect(response.status).toBe(200)
    expect(((await response.json()) as { id: string }).id).toBe(BIG_CHAMBER)
  })
})

describe('exit codes of the built binary', () => {
  it('2 for an unknown flag', async () => {
    const { code, stdout, stderr } = await runCli(
      ['chambers', 'list', '--colour'],
      withCredentials(),
    )
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/^error: unknown option '--colour'/)
  })

  it('2 for a v2-only flag on a v1 base URL, before any request', async () => {
    sandbox().reset()
    const { code, stderr } = await runCli(
      ['chambers', 'list', '--sort', 'name'],
      withCredentials({ CHAMBERCTL_BASE_URL: sandbox().v1 }),
    )
    expect(code).toBe(2)
    expectErrorLine(stderr, /--sort needs API v2, .* is API v1/)
    expect(sandbox().requests).toEqual([])
  })

  it('3 for an unknown chamber, with the JSON error object under --json', async () => {
    const { code, stdout, stderr } = await runCli(
      ['chambers', 'get', 'ch_0404', '--json'],
      withCredentials(),
    )
    expect(code).toBe(3)
    expect(stdout).toBe('')
    const [line, json] = lines(stderr)
    expect(line).toBe('error: chamber ch_0404 not found (HTTP 404)')
    expect(JSON.parse(json!)).toEqual({
      error: {
        status: 404,
        code: 'not_found',
        message: 'chamber ch_0404 not found (HTTP 404)',
        fields: {},
      },
    })
  })

  it('3 without --json: a single error line', async () => {
    const { code, stderr } = await runCli(['members', 'list', 'ch_0404'], withCredentials())
    expect(code).toBe(3)
    expectErrorLine(stderr, /chamber ch_0404 not found/)
  })

  it('4 for a wrong client secret', async () => {
    const { code, stderr } = await runCli(
      ['chambers', 'list'],
      withCredentials({ CHAMBERCTL_CLIENT_SECRET: 'wrong' }),
    )
    expect(code).toBe(4)
    expectErrorLine(stderr, /client authentication failed/)
  })

  it('4 when not logged in at all', async () => {
    const { code, stderr } = await runCli(['members', 'list', BIG_CHAMBER], {
      configDir: tempDir(),
    })
    expect(code).toBe(4)
    expectErrorLine(stderr, /not logged in/)
  })

  it('5 when the connection is refused', async () => {
    const url = await closedPortUrl()
    const { code, stderr } = await runCli(
      ['chambers', 'list'],
      withCredentials({ CHAMBERCTL_BASE_URL: url }),
    )
    expect(code).toBe(5)
    expectErrorLine(
      stderr,
      /cannot reach 127\.0\.0\.1:\d+ after 3 attempts in \d+\.\d s: connect ECONNREFUSED/,
    )
  })
})
