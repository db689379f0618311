// `--sandbox` from several processes at once: they share one SQLite database in the config
// directory, each write its own short transaction, so none waits for another's whole run and no
// record is lost.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startCli } from '../helpers/run-cli.js'

const RUNS = 10
const ROWS = 20

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function configDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'chamberctl-shared-'))
  dirs.push(dir)
  return dir
}

function rowsFile(dir: string, prefix: string, count: number): string {
  const file = path.join(dir, `${prefix}.ndjson`)
  const rows = Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      name: `${prefix} ${i}`,
      email: `${prefix}.${i}@shared.test`,
      membership_type: 'x',
    }),
  )
  writeFileSync(file, rows.join('\n'))
  return file
}

async function emails(dir: string): Promise<string[]> {
  const args = ['--sandbox', 'members', 'list', 'ch_0002', '--all', '--fields', 'email']
  const list = await startCli(args, { configDir: dir }).exited
  expect(list.code, list.stderr).toBe(0)
  return list.stdout.trim().split('\n')
}

describe('--sandbox from several processes', () => {
  it(`${RUNS} bulk runs at once on a new database all succeed and lose no record`, async () => {
    const dir = configDir()
    const runs = Array.from({ length: RUNS }, (_, run) => {
      const file = rowsFile(dir, `run${run}`, ROWS)
      const args = ['--sandbox', 'members', 'add', 'ch_0002', '--from-file', file, '-q']
      return startCli(args, { configDir: dir, timeoutMs: 60_000 }).exited
    })
    const results = await Promise.all(runs)
    expect(results.map((r) => [r.code, r.stderr])).toEqual(Array(RUNS).fill([0, '']))
    const stored = await emails(dir)
    for (let run = 0; run < RUNS; run++) {
      expect(stored.filter((email) => email.startsWith(`run${run}.`))).toHaveLength(ROWS)
    }
  }, 90_000)

  it('a command runs to its end while a long bulk run is still writing', async () => {
    const dir = configDir()
    const file = rowsFile(dir, 'long', 3000)
    const args = ['--sandbox', 'members', 'add', 'ch_0002', '--from-file', file, '-q']
    const long = startCli(args, { configDir: dir, timeoutMs: 120_000 })
    // Its first rows are created: it holds the database open.
    await long.waitFor('stdout', /long\.0@shared\.test/, 30_000)
    // Its output is left unread from here: it prints a line of some 270 bytes per row, and stops
    // mid-run once the pipe is full, far short of its 3,000 rows. However fast the machine, it is
    // then still running while the short command runs.
    long.child.stdout!.pause()
    const add = ['--name', 'Short', '--email', 'short@shared.test', '--membership-type', 'x']
    const short = await startCli(['--sandbox', 'members', 'add', 'ch_0002', ...add], {
      configDir: dir,
    }).exited
    expect(short.code, short.stderr).toBe(0)
    expect(long.child.exitCode).toBeNull()
    long.child.stdout!.resume()
    expect((await long.exited).code).toBe(0)
    const stored = await emails(dir)
    expect(stored).toContain('short@shared.test')
    expect(stored.filter((email) => email.startsWith('long.'))).toHaveLength(3000)
  }, 150_000)
})
