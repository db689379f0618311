import { spawnSync } from 'node:child_process'
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { hostname } from 'node:os'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { Journal, JournalWriteError, KEEP_DAYS } from '../../src/config/journal.js'
import { CliError, ExitCode } from '../../src/errors.js'
import { useTempDirs } from './helpers.js'

const tempDir = useTempDirs()
const KEY = {
  kind: 'members add',
  target: 'chamber ch_1 at http://api.test/v2',
  content: [1, 2, 3],
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown)

const enospc = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), {
    code: 'ENOSPC',
    errno: -28,
  })

// A journal with items 1 (created), 2 (failed) and 3 (unknown), as a run that ended early
// leaves it; returns its path.
async function earlierRun(dir: string): Promise<string> {
  const journal = await Journal.open(dir, KEY)
  journal.begin()
  journal.sending('1')
  journal.settle('1', { status: 'created', id: 'mb_1' })
  journal.sending('2')
  journal.settle('2', { status: 'failed' })
  journal.sending('3')
  journal.settle('3', { status: 'unknown' })
  journal.close('stopped')
  return journal.path
}

// Item 1 sent and created, then item 2 sent: the file holds the three lines, whole.
function twoRequests(journal: Journal, first = true) {
  if (first) journal.sending('1')
  journal.settle('1', { status: 'created', id: 'mb_1' })
  journal.sending('2')
  expect(lines(journal.path)).toEqual([
    { item: '1', status: 'sending' },
    { item: '1', status: 'created', id: 'mb_1' },
    { item: '2', status: 'sending' },
  ])
}

describe('Journal', () => {
  it('has an item in the file as sending before its request may leave, and every outcome once closed', async () => {
    const dir = tempDir()
    const journal = await Journal.open(dir, KEY)
    expect(journal.earlier).toBeUndefined()
    journal.begin()
    journal.sending('1')
    expect(lines(journal.path)).toEqual([{ item: '1', status: 'sending' }])
    twoRequests(journal, false)
    journal.close('stopped')

    await earlierRun(dir)
    const resumed = await Journal.open(dir, KEY)
    expect(resumed.earlier?.end).toBe('stopped')
    expect(Object.fromEntries(resumed.earlier!.entries)).toEqual({
      '1': { status: 'created', id: 'mb_1' },
      '2': { status: 'failed' },
      '3': { status: 'unknown' },
    })
    resumed.begin(resumed.earlier!.entries)
    resumed.settle('2', { status: 'created', id: 'mb_2' })
    resumed.settle('3', { status: 'created', id: 'mb_3' })
    resumed.close('finished')
    // Kept once finished, so that running the same input again is recognised as a re-run.
    const again = await Journal.open(dir, KEY)
    expect(again.earlier?.end).toBe('finished')
    expect([...again.earlier!.entries.values()].map((e) => e.status)).toEqual(
      Array(3).fill('created'),
    )
    again.release()
  })

  it('continues a short write where it stopped: every line lands whole', async () => {
    const dir = tempDir()
    // Every write puts down at most 5 bytes, as a nearly full disk may.
    const journal = await Journal.open(dir, KEY, {
      write: ((fd: number, bytes: Buffer, offset: number, length: number) =>
        writeSync(fd, bytes, offset, Math.min(length, 5))) as typeof writeSync,
    })
    journal.begin()
    twoRequests(journal)
    journal.close('finished')
  })

  it('a write that fails part-way throws a clear error, writes nothing more, and still lets the lock go', async () => {
    const dir = tempDir()
    let calls = 0
    const journal = await Journal.open(dir, KEY, {
      write: ((fd: number, bytes: Buffer, offset: number, length: number) => {
        calls++
        // The second line's first 7 bytes, then the disk is full.
        if (calls === 2) return writeSync(fd, bytes, offset, 7)
        if (calls > 2) throw enospc()
        return writeSync(fd, bytes, offset, length)
      }) as typeof writeSync,
    })
    journal.begin()
    journal.sending('1')
    let thrown: unknown
    try {
      journal.sending('2')
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(JournalWriteError)
    expect((thrown as Error).message).toBe(
      `cannot write the journal ${journal.path}: no space left on device (ENOSPC); stopped ` +
        'sending, since nothing is sent without its mark in the journal',
    )
    expect(() => journal.sending('3')).toThrow(JournalWriteError)
    // Closing writes nothing more (the torn line stays the last) and releases the lock.
    journal.close('stopped')
    expect(readFileSync(journal.path, 'utf8')).toBe('{"item":"1","status":"sending"}\n{"item"')

    // The torn last line is read as what it is: a mark whose request never left.
    const next = await Journal.open(dir, KEY)
    expect(Object.fromEntries(next.earlier!.entries)).toEqual({ '1': { status: 'sending' } })
    expect(next.earlier!.end).toBeUndefined()
    // Continued: the torn line is gone, so new lines never follow it on the same line.
    next.begin(next.earlier!.entries)
    next.sending('2')
    expect(lines(next.path)).toEqual([
      { item: '1', status: 'sending' },
      { item: '2', status: 'sending' },
    ])
    next.close('stopped')
  })

  it('refuses a journal damaged before its last line, naming the line and the way on', async () => {
    for (const damage of ['null', '{"item":"2","sta', '"text"', '{"item":2,"status":"created"}']) {
      const dir = tempDir()
      const file = await earlierRun(dir)
      const text = readFileSync(file, 'utf8').split('\n')
      text.splice(2, 0, damage)
      writeFileSync(file, text.join('\n'))
      const error = await Journal.open(dir, KEY).then(
        () => undefined,
        (e: unknown) => e as Error,
      )
      expect(error?.message, damage).toBe(
        `the journal ${file} is damaged at line 3, so it cannot tell what an earlier run of ` +
          'this input sent; run the same command with --skip-existing to send only the ' +
          'records not already on the server (that starts a new journal)',
      )
      // The refusal let the lock go: a repaired journal opens at once.
      writeFileSync(file, '')
      const fresh = await Journal.open(dir, KEY)
      expect(fresh.earlier).toBeUndefined()
      fresh.release()
    }
  })

  it('reads a null last line or a line of NUL bytes (a crash mid-write) as torn', async () => {
    for (const tail of ['null', '\0\0\0\0']) {
      const dir = tempDir()
      const file = await earlierRun(dir)
      appendFileSync(file, tail)
      const journal = await Journal.open(dir, KEY)
      expect(journal.earlier!.entries.size).toBe(3)
      journal.release()
    }
  })

  it('is let go by close, by release, and when opening fails', async () => {
    const dir = tempDir()
    const first = await Journal.open(dir, KEY)
    const lock = first.path.replace(/\.ndjson$/, '.lock')
    expect(existsSync(lock)).toBe(true)
    first.begin()
    first.sending('1')
    first.close('stopped')
    expect(existsSync(lock)).toBe(false)
    const second = await Journal.open(dir, KEY)
    expect(Object.fromEntries(second.earlier!.entries)).toEqual({ '1': { status: 'sending' } })
    second.release()
    expect(existsSync(lock)).toBe(false)
    writeFileSync(first.path, 'null\n{}\n')
    await expect(Journal.open(dir, KEY)).rejects.toThrow(/is damaged at line 1/)
    expect(existsSync(lock)).toBe(false)
  })
})

describe('one run of one input at a time', () => {
  const lockOf = (journal: Journal) => journal.path.replace(/\.ndjson$/, '.lock')
  const refusal = (owner: string) =>
    `another chamberctl (${owner}) is running this same input against ${KEY.target}; wait ` +
    'for it to end'
  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error as CliError,
    )
  // The lock file of KEY's journal in `dir`, naming `owner`.
  async function lockedBy(dir: string, owner: Record<string, unknown>): Promise<string> {
    const journal = await Journal.open(dir, KEY)
    const lock = lockOf(journal)
    journal.release()
    writeFileSync(lock, JSON.stringify({ token: 'theirs', ...owner }))
    return lock
  }

  it('refuses a second run at once, naming the process that runs it; free again once it ends', async () => {
    const dir = tempDir()
    const first = await Journal.open(dir, KEY)
    const error = await failureOf(Journal.open(dir, KEY))
    expect(error).toBeInstanceOf(CliError)
    expect(error?.exitCode).toBe(ExitCode.usage)
    expect(error?.message).toBe(refusal(`process ${process.pid}`))
    first.begin()
    first.close('finished')
    const second = await Journal.open(dir, KEY)
    second.release()
  })

  it('takes over at once the lock of a process that is gone (kill -9 leaves it behind)', async () => {
    const dir = tempDir()
    const gone = spawnSync(process.execPath, ['-e', '']).pid
    const lock = await lockedBy(dir, { pid: gone, host: hostname() })
    const journal = await Journal.open(dir, KEY)
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid })
    journal.release()
    expect(existsSync(lock)).toBe(false)
  })

  it('lets exactly one of several takers have a lock left behind', async () => {
    const dir = tempDir()
    const gone = spawnSync(process.execPath, ['-e', '']).pid
    await lockedBy(dir, { pid: gone, host: hostname() })
    const opened = await Promise.allSettled(Array.from({ length: 4 }, () => Journal.open(dir, KEY)))
    const won = opened.filter((o) => o.status === 'fulfilled')
    expect(won).toHaveLength(1)
    for (const lost of opened.filter((o) => o.status === 'rejected')) {
      expect((lost.reason as Error).message).toBe(refusal(`process ${process.pid}`))
    }
    won[0]!.value.release()
  })

  it.runIf(process.platform === 'linux')(
    'takes over a lock whose process id now belongs to a process started at another moment',
    async () => {
      const dir = tempDir()
      await lockedBy(dir, { pid: process.pid, host: hostname(), started: 'another-boot:1' })
      const journal = await Journal.open(dir, KEY)
      journal.release()
    },
  )

  it('holds a lock of another host while it is touched; one untouched for a minute is taken over', async () => {
    const dir = tempDir()
    const lock = await lockedBy(dir, { pid: 1, host: 'elsewhere.test' })
    const error = await failureOf(Journal.open(dir, KEY))
    expect(error?.message).toBe(refusal('process 1 on elsewhere.test'))
    const past = new Date(Date.now() - 61_000)
    utimesSync(lock, past, past)
    const journal = await Journal.open(dir, KEY)
    journal.release()
  })

  it('stops the journal of a run whose lock another host took over while it was stalled', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    try {
      const dir = tempDir()
      const journal = await Journal.open(dir, KEY)
      journal.begin()
      journal.sending('1')
      writeFileSync(lockOf(journal), JSON.stringify({ pid: 1, host: 'elsewhere.test', token: 't' }))
      vi.advanceTimersByTime(10_000)
      expect(() => journal.sending('2')).toThrow(
        `cannot write the journal ${journal.path}: another chamberctl took over the lock ` +
          `${lockOf(journal)} while this run was stalled; stopped sending, since nothing is ` +
          'sent without its mark in the journal',
      )
      journal.close('stopped')
      // The lock is the other host's now: closing left it alone.
      expect(JSON.parse(readFileSync(lockOf(journal), 'utf8'))).toMatchObject({ token: 't' })
    } finally {
      vi.useRealTimers()
    }
  })

  it('takes over a lock file that names no process', async () => {
    const dir = tempDir()
    const lock = await lockedBy(dir, {})
    writeFileSync(lock, 'not a lock')
    const journal = await Journal.open(dir, KEY)
    journal.release()
  })
})

describe('the journal directory', () => {
  it('in the way of a file or a symbolic link: one line naming the path and the fix, exit 1', async () => {
    const dir = tempDir()
    const journals = path.join(dir, 'journals')
    for (const [make, what] of [
      [() => writeFileSync(journals, ''), 'a file'],
      [() => symlinkSync(tempDir(), journals), 'a symbolic link'],
    ] as const) {
      make()
      const error = await Journal.open(dir, KEY).then(
        () => undefined,
        (e: unknown) => e as CliError,
      )
      expect(error).toBeInstanceOf(CliError)
      expect(error?.exitCode).toBe(ExitCode.failure)
      expect(error?.message).toBe(
        `${journals} is ${what}, where chamberctl keeps the journals of bulk runs; move or ` +
          'remove it, then run the command again',
      )
      expect(error?.code).not.toBe('internal')
      rmSync(journals, { recursive: true })
    }
  })

  it('writes no journal through a symbolic link left where its draft goes', async () => {
    const dir = tempDir()
    const victim = path.join(tempDir(), 'someone-elses')
    writeFileSync(victim, 'theirs\n')
    const journal = await Journal.open(dir, KEY)
    symlinkSync(victim, `${journal.path}.${process.pid}.tmp`)
    journal.begin()
    journal.sending('1')
    journal.close('finished')
    expect(readFileSync(victim, 'utf8')).toBe('theirs\n')
    expect(lines(journal.path)[0]).toMatchObject({ item: '1' })
  })

  it(`forgets what no run has written for ${KEEP_DAYS} days, and keeps the rest`, async () => {
    const dir = tempDir()
    const file = await earlierRun(dir)
    const journals = path.dirname(file)
    const old = new Date(Date.now() - (KEEP_DAYS + 1) * 86_400_000)
    const recent = new Date(Date.now() - (KEEP_DAYS - 1) * 86_400_000)
    const left = (name: string, time: Date, directory = false) => {
      const entry = path.join(journals, name)
      if (directory) mkdirSync(entry)
      else writeFileSync(entry, '{}\n')
      utimesSync(entry, time, time)
    }
    left('0123.ndjson', old)
    left('0123.lock', old)
    left('0123.lock.4242.tmp', old)
    left('0123.ndjson.lock', old, true)
    left('4567.ndjson', recent)
    utimesSync(file, old, old)
    const journal = await Journal.open(dir, { ...KEY, content: 'another input' })
    journal.release()
    expect(readdirSync(journals).sort()).toEqual(['4567.ndjson'])
  })
})
