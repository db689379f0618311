// One run of one input at a time, across processes (contract §3 "Bulk runs"): the built bin, in
// several processes sharing one config directory, against one sandbox (one in this process, or
// the embedded one the processes share through the config directory). Processes started
// together may interleave in any order; whatever the order, one run sends every record and every
// other exits 2 before sending anything, refused either as a second run of an input another
// process is running (naming that process) or as a re-run of the run that finished. A run held
// mid-way by a gate in front of the sandbox shows the refusal comes at once, and a run killed
// with kill -9 blocks nothing. Every case counts the records and the creates on the server.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { NOW, credentialsEnv, openSandbox, useSandbox, useTempDirs } from '../helpers/sandbox.js'
import type { SandboxFixture } from '../helpers/sandbox.js'
import { isCreate, startGate } from '../helpers/gate.js'
import { ndjson } from '../helpers/output.js'
import { runCli, startCli } from '../helpers/run-cli.js'
import type { CliResult } from '../helpers/run-cli.js'
import { SandboxReader } from '../helpers/session.js'

const sandbox = useSandbox({ now: () => NOW })
const tempDir = useTempDirs('chamberctl-cross-')

type Ended = CliResult & { pid: number }

// Several processes of the built bin each: time enough on a busy machine.
const SLOW = 60_000

// `n` processes of the same command, started in the same moment.
function together(n: number, args: string[], configDir: string, env: NodeJS.ProcessEnv) {
  const runs = Array.from({ length: n }, () =>
    startCli(args, { configDir, env, timeoutMs: 60_000 }),
  )
  return Promise.all(runs.map(async (run) => ({ ...(await run.exited), pid: run.child.pid! })))
}

const running = (pid: number | string, target: string) =>
  `error: another chamberctl (process ${pid}) is running this same input against ${target}; ` +
  'wait for it to end\n'
const finished = (target: string, counts: string, noun: string) =>
  `error: an earlier run of this input against ${target} finished (${counts}); run the same ` +
  `command with --resume or --skip-existing to send only the ${noun}s not already on the server\n`

// Whether `run` was refused because another of the runs `ended` held the input at that moment:
// the sender, or another refused one reading what the sender left.
function refusedByAnother(run: Ended, ended: Ended[], target: string): boolean {
  const holder = /^error: another chamberctl \(process (\d+)\)/.exec(run.stderr)?.[1]
  if (holder === undefined) return false
  expect(ended.map((e) => e.pid).filter((pid) => pid !== run.pid)).toContain(Number(holder))
  expect(run.stderr).toBe(running(holder, target))
  return true
}

// The one invariant of runs started together, whatever their order: one sent, every other was
// refused before sending, as a second run or as a re-run of the one that finished.
function oneRunSent(ended: Ended[], target: string, refusedAsRerun: string) {
  const all = ended.map((e) => `${e.pid}: exit ${e.code}: ${e.stderr}`).join('\n')
  const senders = ended.filter((e) => e.code === 0)
  expect(senders, all).toHaveLength(1)
  for (const other of ended.filter((e) => e !== senders[0])) {
    expect(other.code, all).toBe(2)
    expect(other.stdout).toBe('')
    if (!refusedByAnother(other, ended, target)) expect(other.stderr).toBe(refusedAsRerun)
  }
  return senders[0]!
}

const creates = (fixture: SandboxFixture, route: RegExp) =>
  fixture.requests.filter((r) => r.method === 'POST' && route.test(r.path))

const membersOf = (chamber: string) => new RegExp(`^/v2/chambers/${chamber}/members$`)

function chambersFixture(dir: string, tag: string, count: number): string {
  const file = path.join(dir, 'twin.json')
  const chambers = Array.from({ length: count }, (_, i) => ({
    key: `c${i}`,
    name: `Twin ${tag} ${i}`,
    type: 'hq',
    address: { city: 'Kiel' },
  }))
  writeFileSync(file, JSON.stringify({ chambers }))
  return file
}

function membersFile(dir: string, tag: string, count: number): string {
  const file = path.join(dir, 'c300.ndjson')
  const rows = Array.from({ length: count }, (_, i) =>
    JSON.stringify({ name: `Member ${i}`, email: `${tag}${i}@cross.test`, membership_type: 'x' }),
  )
  writeFileSync(file, `${rows.join('\n')}\n`)
  return file
}

describe.each([2, 4])('%i processes started together', (n) => {
  it(
    'seed of 60 chambers: each created once, by one of them',
    async () => {
      const dir = tempDir()
      const tag = `seed${n}`
      const file = chambersFixture(dir, tag, 60)
      const fixture = sandbox()
      const before = creates(fixture, /^\/v2\/chambers$/).length
      const ended = await together(n, ['seed', file], dir, credentialsEnv(fixture))
      oneRunSent(ended, fixture.v2, finished(fixture.v2, '60 created', 'record'))
      const named = (await new SandboxReader(fixture.sandbox).chambers()).filter((c) =>
        String(c.name).startsWith(`Twin ${tag} `),
      )
      expect(named).toHaveLength(60)
      expect(creates(fixture, /^\/v2\/chambers$/).length - before).toBe(60)
    },
    SLOW,
  )

  it(
    'members add --from-file of 300 rows: each sent once, by one of them',
    async () => {
      const dir = tempDir()
      const tag = `rows${n}-`
      const file = membersFile(dir, tag, 300)
      const fixture = sandbox()
      const chamber = await new SandboxReader(fixture.sandbox).emptyChamber(`Cross ${n}`)
      const args = ['members', 'add', chamber, '--from-file', file, '--concurrency', '8']
      const ended = await together(n, args, dir, credentialsEnv(fixture))
      const target = `chamber ${chamber} at ${fixture.v2}`
      const sender = oneRunSent(ended, target, finished(target, '300 created', 'row'))
      expect(statuses(sender)).toEqual(Array(300).fill('created'))
      const members = await new SandboxReader(fixture.sandbox).members(chamber)
      expect(new Set(members.map((m) => m.email)).size).toBe(300)
      expect(members).toHaveLength(300)
      // Not one row was sent twice (the server would have refused it as a duplicate e-mail).
      expect(creates(fixture, membersOf(chamber))).toHaveLength(300)
    },
    SLOW,
  )
})

describe('the embedded sandbox (--sandbox), shared by 2 processes started together', () => {
  it(
    'gets each chamber of a seed once',
    async () => {
      const dir = tempDir()
      const file = chambersFixture(dir, 'embedded', 20)
      const ended = await together(2, ['seed', file, '--sandbox'], dir, {})
      const target = 'the embedded sandbox (v2)'
      oneRunSent(ended, target, finished(target, '20 created', 'record'))
      const listed = await runCli(['chambers', 'list', '--all', '--json', '--sandbox'], {
        configDir: dir,
      })
      const chambers = JSON.parse(listed.stdout) as { name: string }[]
      expect(chambers.filter((c) => c.name.startsWith('Twin embedded '))).toHaveLength(20)
    },
    SLOW,
  )
})

describe('export → seed from 2 processes at once into an empty directory', () => {
  it(
    'creates each record once: the copy exports byte for byte as the original',
    async () => {
      const dir = tempDir()
      const original = sandbox()
      const exported = await runCli(['export', '--members'], {
        configDir: dir,
        env: credentialsEnv(original),
      })
      expect(exported.code, exported.stderr).toBe(0)
      const file = path.join(dir, 'directory.yaml')
      writeFileSync(file, exported.stdout)
      const copy = await openSandbox({ now: () => NOW, empty: true })
      try {
        const ended = await together(2, ['seed', file], dir, credentialsEnv(copy))
        const records = creates(copy, /^\/v2\/chambers(\/[^/]+\/members)?$/).length
        const counts = `${records.toLocaleString('en-US')} created`
        oneRunSent(ended, copy.v2, finished(copy.v2, counts, 'record'))
        const again = await runCli(['export', '--members'], {
          configDir: dir,
          env: credentialsEnv(copy),
        })
        expect(again.stdout).toBe(exported.stdout)
      } finally {
        await copy.close()
      }
    },
    SLOW,
  )
})

// A members add of 20 rows through a gate, held with its first two creates at the gate; `holds`
// picks the requests the gate holds (every create by default).
async function heldRun(
  dir: string,
  name: string,
  holds?: (method: string, url: string) => boolean,
) {
  const fixture = sandbox()
  const chamber = await new SandboxReader(fixture.sandbox).emptyChamber(name)
  const gate = await startGate(fixture.sandbox, holds)
  const env = credentialsEnv(fixture, gate.baseUrl('v2'))
  const file = membersFile(dir, name.toLowerCase(), 20)
  const args = ['members', 'add', chamber, '--from-file', file, '--concurrency', '2']
  const first = startCli(args, { configDir: dir, env, timeoutMs: 60_000 })
  await gate.whenHeld(2)
  const again = (...extra: string[]) => runCli([...args, ...extra], { configDir: dir, env })
  const created = () => creates(fixture, membersOf(chamber))
  return {
    gate,
    first,
    target: `chamber ${chamber} at ${gate.baseUrl('v2')}`,
    again,
    together: (n: number) => together(n, args, dir, env),
    created,
    // --resume ends the input: every row `status`, each on the server once, sent once.
    async resumes(status: string) {
      const resumed = await again('--resume')
      expect(resumed.code, resumed.stderr).toBe(0)
      expect(statuses(resumed)).toEqual(Array(20).fill(status))
      expect(created()).toHaveLength(20)
      expect(await new SandboxReader(fixture.sandbox).members(chamber)).toHaveLength(20)
    },
  }
}

const statuses = (result: CliResult) =>
  ndjson<{ status: string }>(result.stdout).map((r) => r.status)

describe('a run held mid-way', () => {
  it(
    'refuses a second run at once, naming its process; once it finished, a re-run is refused and --resume sends nothing',
    async () => {
      const run = await heldRun(tempDir(), 'Held')
      try {
        // The first run's creates are held at the gate until the second has ended: had the
        // second waited for the first, it would never end.
        const second = await run.again()
        expect(second.stderr).toBe(running(run.first.child.pid!, run.target))
        expect(second.code).toBe(2)
        expect(second.stdout).toBe('')
        expect(run.gate.held()).toHaveLength(2)
        expect(run.created()).toEqual([])

        run.gate.open()
        const ended = await run.first.exited
        expect(ended.code, ended.stderr).toBe(0)

        const rerun = await run.again()
        expect(rerun.code).toBe(2)
        expect(rerun.stderr).toBe(finished(run.target, '20 created', 'row'))
        await run.resumes('skipped')
      } finally {
        await run.gate.close()
      }
    },
    SLOW,
  )
})

describe('a run killed with kill -9', () => {
  it(
    'blocks nothing: 4 runs started together after it are each told it ended early, or refused as the run of another, and --resume creates every row once',
    async () => {
      let holding = true
      const run = await heldRun(
        tempDir(),
        'Killed',
        (method, url) => holding && isCreate(method, url),
      )
      try {
        run.first.child.kill('SIGKILL')
        expect((await run.first.exited).signal).toBe('SIGKILL')
        // Its two held creates never reach the server.
        holding = false

        // Its lock is left behind: the four take it over at once, one at a time.
        const ended = await run.together(4)
        const told = ended.filter((plain) => !refusedByAnother(plain, ended, run.target))
        expect(told.length).toBeGreaterThan(0)
        for (const plain of told) {
          expect(plain.stderr).toBe(
            `error: an earlier run of this input against ${run.target} ended early (2 unknown); ` +
              'run the same command with --resume to continue it, or with --skip-existing to ' +
              'send only the rows not already on the server\n',
          )
        }
        expect(ended.map((plain) => plain.code)).toEqual([2, 2, 2, 2])
        expect(run.created()).toEqual([])
        await run.resumes('created')
      } finally {
        await run.gate.close()
      }
    },
    SLOW,
  )
})
