// A bulk run of the built binary that ends early, the same way for every cause (contract §4
// "Ending early"): Ctrl-C on a terminal, SIGTERM, SIGHUP, a stdout its reader closes (`| head -1`), a stdout that
// cannot be written (`> /dev/full`), and a journal that cannot be written (a file size limit:
// a short write, then EFBIG). Nothing more is sent, the requests in flight finish and are
// recorded, one summary counts every row, and --resume then creates each row exactly once. The
// sandbox sits behind a gate that holds the creates, so what is in flight is the test's choice;
// every case counts the members on the server afterwards.
import { closeSync, openSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { BIG_CHAMBER, credentialsEnv, useSandbox, useTempDirs } from '../helpers/sandbox.js'
import { lines, ndjson } from '../helpers/output.js'
import { startGate } from '../helpers/gate.js'
import { HAVE_PTY, startPty, terminalEnv } from '../helpers/pty.js'
import type { Gate } from '../helpers/gate.js'
import { SandboxReader } from '../helpers/session.js'
import { runCli, startCli } from '../helpers/run-cli.js'

const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-e2e-early-')

function membersFile(dir: string, count: number, tag: string): string {
  const file = path.join(dir, 'members.csv')
  const rows = Array.from({ length: count }, (_, i) => `Member ${i},${tag}${i}@early.test,standard`)
  writeFileSync(file, `name,email,membership_type\n${rows.join('\n')}\n`)
  return file
}

async function membersOf(chamber: string): Promise<string[]> {
  const members = await new SandboxReader(sandbox().sandbox).members(chamber)
  return members.map((m) => String(m.email))
}

const emptyChamber = (name: string) => new SandboxReader(sandbox().sandbox).emptyChamber(name)

// The counts of a summary line: `2 created, 38 not sent (interrupted) in 0.1 s`.
function summary(stderr: string): Record<string, number> {
  const line = lines(stderr).find((l) => / in \d+\.\d s$/.test(l))
  expect(line, stderr).toBeDefined()
  const counts: Record<string, number> = {}
  for (const [, n, status] of line!.matchAll(
    /([\d,]+) (created|skipped|failed|unknown|not sent)/g,
  )) {
    counts[status!] = Number(n!.replace(/,/g, ''))
  }
  return counts
}

async function withGate<T>(test: (gate: Gate) => Promise<T>): Promise<T> {
  const gate = await startGate(sandbox().sandbox)
  try {
    return await test(gate)
  } finally {
    gate.open()
    await gate.close()
  }
}

// The same input continued against the sandbox itself: every row then exists exactly once.
async function resumeAll(dir: string, chamber: string, file: string, rows: number) {
  const resumed = await runCli(['members', 'add', chamber, '--from-file', file, '--resume'], {
    configDir: dir,
    env: credentialsEnv(sandbox()),
  })
  expect(resumed.code, resumed.stderr).toBe(0)
  const emails = await membersOf(chamber)
  expect(emails).toHaveLength(rows)
  expect(new Set(emails).size).toBe(rows)
}

describe('a signal', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('%s: the requests in flight finish, one summary, exit %i', async (signal, exit) => {
    const dir = tempDir()
    const chamber = await emptyChamber(`Early ${signal}`)
    const file = membersFile(dir, 40, signal.toLowerCase())
    await withGate(async (gate) => {
      const run = startCli(['members', 'add', chamber, '--from-file', file, '--concurrency', '2'], {
        configDir: dir,
        env: credentialsEnv(sandbox(), gate.baseUrl('v2')),
      })
      await gate.whenHeld(2)
      run.child.kill(signal)
      await run.waitFor('stderr', /Interrupted: finishing the requests in flight/)
      gate.open()
      const result = await run.exited
      expect(result.code, result.stderr).toBe(exit)
      const tail = lines(result.stderr).slice(-2)
      expect(tail[0]).toMatch(/^2 created, 38 not sent \(interrupted\) in \d+\.\d s$/)
      expect(tail[1]).toBe(
        'To continue, run the same command with --resume: it sends only the 38 rows not yet created',
      )
      const results = ndjson<{ status: string }>(result.stdout)
      expect(results.filter((r) => r.status === 'created')).toHaveLength(2)
      expect(await membersOf(chamber)).toHaveLength(2)
    })
    await resumeAll(dir, chamber, file, 40)
  })
})

describe('a stdout that ends', () => {
  it('| head -1: stops sending once its reader is gone, says so, exit 1', async () => {
    const dir = tempDir()
    const chamber = await emptyChamber('Early head')
    const file = membersFile(dir, 300, 'head')
    await withGate(async (gate) => {
      const run = startCli(
        ['members', 'add', chamber, '--from-file', file, '-o', 'ndjson', '--concurrency', '4'],
        { configDir: dir, env: credentialsEnv(sandbox(), gate.baseUrl('v2')) },
      )
      await gate.whenHeld(4)
      gate.release(1)
      await run.waitFor('stdout', /\n/)
      // What `head -1` does after its line: the pipe's reading end goes away.
      run.child.stdout!.destroy()
      // The rest of the first four: the requests reach the gate in any order, and the results
      // are written in the input's, so only all of them make sure a second line is written.
      gate.release(3)
      await run.waitFor('stderr', /Output closed: finishing the requests in flight/)
      gate.open()
      const result = await run.exited
      expect(result.code, result.stderr).toBe(1)
      expect(result.stderr).not.toMatch(/\n\s+at /)
      expect(lines(result.stderr).at(-2)).toMatch(/ \(output closed\) in \d+\.\d s$/)
      const counts = summary(result.stderr)
      expect(counts.created! + counts['not sent']!).toBe(300)
      // At most the first four and the four sent before the closed pipe was found.
      expect(counts['not sent']).toBeGreaterThanOrEqual(300 - 4 - 4)
      expect(await membersOf(chamber)).toHaveLength(counts.created!)
    })
    await resumeAll(dir, chamber, file, 300)
  })

  it('> /dev/full: one line on stderr, no stack, nothing more sent, exit 1', async () => {
    const dir = tempDir()
    const chamber = await emptyChamber('Early full')
    const file = membersFile(dir, 200, 'full')
    const full = openSync('/dev/full', 'w')
    let result
    try {
      result = await runCli(['members', 'add', chamber, '--from-file', file, '-o', 'ndjson'], {
        configDir: dir,
        env: credentialsEnv(sandbox()),
        stdout: full,
      })
    } finally {
      closeSync(full)
    }
    expect(result.code, result.stderr).toBe(1)
    expect(result.stderr).toContain(
      'error: cannot write to standard output: no space left on device (ENOSPC)\n',
    )
    expect(result.stderr).not.toMatch(/\n\s+at /)
    const counts = summary(result.stderr)
    expect(lines(result.stderr).at(-2)).toMatch(/ \(output closed\) in \d+\.\d s$/)
    expect(counts.created! + counts['not sent']!).toBe(200)
    expect(await membersOf(chamber)).toHaveLength(counts.created!)
    await resumeAll(dir, chamber, file, 200)
  })

  it('a list: exit 0 quietly when its reader goes, one line and exit 1 on /dev/full', async () => {
    const full = openSync('/dev/full', 'w')
    try {
      const failed = await runCli(['chambers', 'list', '--all'], {
        configDir: tempDir(),
        env: credentialsEnv(sandbox()),
        stdout: full,
      })
      expect(failed.code).toBe(1)
      expect(failed.stderr).toBe(
        'error: cannot write to standard output: no space left on device (ENOSPC)\n',
      )
    } finally {
      closeSync(full)
    }
    const run = startCli(['members', 'list', BIG_CHAMBER, '--all', '-o', 'ndjson'], {
      configDir: tempDir(),
      env: credentialsEnv(sandbox()),
    })
    await run.waitFor('stdout', /\n/)
    run.child.stdout!.destroy()
    const closed = await run.exited
    expect(closed.code).toBe(0)
    expect(closed.stderr).toBe('')
  })
})

describe('a journal that cannot be written', () => {
  it('stops the run like an interrupt, with one line; --resume creates every row once', async () => {
    const dir = tempDir()
    const chamber = await emptyChamber('Early journal')
    const rows = 200
    const file = membersFile(dir, rows, 'journal')
    // Files of at most 2 KiB: the journal's lines go short, then fail (EFBIG), mid-run.
    const first = await runCli(['members', 'add', chamber, '--from-file', file], {
      configDir: dir,
      env: credentialsEnv(sandbox()),
      fileSizeLimitKiB: 2,
    })
    expect(first.code, first.stderr).toBe(1)
    expect(first.stderr).toMatch(
      /\nerror: cannot write the journal \S+: file too large \(EFBIG\); stopped sending, since nothing is sent without its mark in the journal\n/,
    )
    expect(first.stderr).not.toMatch(/\n\s+at /)
    expect(lines(first.stderr).at(-2)).toMatch(/ \(journal not written\) in \d+\.\d s$/)
    const counts = summary(first.stderr)
    expect(counts['not sent']).toBeGreaterThan(0)
    expect(await membersOf(chamber)).toHaveLength(counts.created!)
    const creates = () =>
      sandbox().requests.filter((r) => r.method === 'POST' && r.path.endsWith('/members'))
    const before = creates().length
    await resumeAll(dir, chamber, file, rows)
    // Only the rows the server lacked were sent: none of them was refused as a duplicate.
    const sent = creates().slice(before)
    expect(sent.filter((r) => r.status !== 201)).toEqual([])
    expect(sent).toHaveLength(rows - counts.created!)
  })
})

describe.skipIf(!HAVE_PTY)('Ctrl-C on a terminal of 80x30', () => {
  it('leaves the bar, one summary and how to continue: no line for each row never sent', async () => {
    const dir = tempDir()
    const chamber = await emptyChamber('Early Ctrl-C')
    const file = membersFile(dir, 1_000, 'ctrlc')
    await withGate(async (gate) => {
      const session = startPty(
        ['members', 'add', chamber, '--from-file', file, '--concurrency', '4'],
        {
          env: { ...terminalEnv(sandbox(), dir), CHAMBERCTL_BASE_URL: gate.baseUrl('v2') },
          columns: 80,
          rows: 30,
        },
      )
      await gate.whenHeld(4)
      gate.release(4)
      await gate.whenHeld(4)
      // Ctrl-C as the terminal sends it: SIGINT to the command.
      session.write('\u0003')
      await session.prompts.next(/Interrupted: finishing the requests in flight/)
      gate.open()
      const { code, screen } = await session.exited
      expect(code, screen).toBe(130)
      const shown = screen
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean)
      // The way on wraps to the terminal's 80 columns.
      expect(shown.slice(-3)).toEqual([
        expect.stringMatching(/^8 created, 992 not sent \(interrupted\) in \d+\.\d s$/),
        'To continue, run the same command with --resume: it sends only the 992 rows not',
        'yet created',
      ])
      // The bar's last frame, the note, the summary and the way on: no line for a row never sent.
      expect(shown.filter((line) => /not.sent/.test(line))).toHaveLength(1)
      expect(shown.length, screen).toBeLessThanOrEqual(6)
      expect(await membersOf(chamber)).toHaveLength(8)
    })
  })
})
