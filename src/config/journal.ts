// The journal of a bulk run (`members add --from-file`, `seed`): every item's outcome, appended
// as it happens to <config dir>/journals/<key>.ndjson, so that a run that ends early in any way
// (Ctrl-C, failures, a full disk, a lost network, kill -9) can be continued with --resume
// without creating anything twice, and a run that finished is remembered, so that running the
// same input again is recognised as a re-run. The key is a hash of the server, the target and the
// input's content, so the same command on the same file finds its journal and nothing else does.
//
// An item is written `sending` before its request leaves and settled after: one left `sending`
// may or may not exist on the server, and is looked up before it is sent again. Every line is
// written whole (a short write is continued; a write that fails throws JournalWriteError, and
// the request it announces is not sent). A settled line goes out with the next `sending` line
// (or at the end), one write a request instead of two: a killed run leaves at most the items of
// one round of requests more to look up. The last line says how the run ended; a journal
// without one ended early. One run of an input holds its journal at a time (RunLock); a journal
// no run has written for KEEP_DAYS days is forgotten. What to make of an earlier run is the bulk
// runner's business (src/cmdutil/bulk): this module reads, writes, locks and forgets.
import { createHash } from 'node:crypto'
import {
  closeSync,
  constants,
  lstatSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { hostname } from 'node:os'
import path from 'node:path'
import { CliError, ExitCode, UsageError, describeSystemError } from '../errors.js'
import { describeFsError, ensureConfigDir, readIfPresent } from './dir.js'
import { LockedError, RunLock } from './run-lock.js'

// `refused`: the server refused it for good (a 4xx that sending again cannot change).
export type JournalStatus = 'sending' | 'created' | 'skipped' | 'failed' | 'refused' | 'unknown'
export type JournalError = {
  status: number | null
  code: string
  message: string
  fields: Record<string, string[]>
}
export type JournalEntry = { status: JournalStatus; id?: string; error?: JournalError }
// `finished`: every item was tried; `stopped`: the run ended early and said so.
export type JournalEnd = 'finished' | 'stopped'

export type EarlierRun = {
  entries: ReadonlyMap<string, JournalEntry>
  // Undefined when the run was killed before it could say.
  end?: JournalEnd
}

export type JournalKey = {
  kind: string
  // Where the items go, e.g. the base URL and a chamber id.
  target: string
  // The items as they would be sent.
  content: unknown
}

const STATUSES: ReadonlySet<string> = new Set([
  'sending',
  'created',
  'skipped',
  'failed',
  'refused',
  'unknown',
])

// How long a journal is kept after the last run that wrote it: a re-run within this time is
// recognised; after it, the input is new again. `help bulk` says so.
// A journal is written as a new file, then appended to, never through a symbolic link (the
// directory is the user's alone, and this holds even where it is not).
const NOFOLLOW = constants.O_NOFOLLOW ?? 0
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW
const APPEND = constants.O_WRONLY | constants.O_APPEND | NOFOLLOW

export const KEEP_DAYS = 30
const KEEP_MS = KEEP_DAYS * 24 * 60 * 60 * 1000

// The journal could not be written: the run stops sending, as on Ctrl-C.
export class JournalWriteError extends CliError {
  constructor(file: string, error: unknown) {
    super(
      `cannot write the journal ${file}: ${describeSystemError(error)}; stopped sending, since ` +
        'nothing is sent without its mark in the journal',
      ExitCode.failure,
      'journal',
    )
  }
}

export class Journal {
  private fd: number | undefined
  // Settled lines not yet written.
  private settled = ''
  // Once a write failed, nothing more is written: a torn line stays the last one.
  private failed: JournalWriteError | undefined
  private released = false

  private constructor(
    readonly path: string,
    // What an earlier run of the same input left, undefined when there is no journal.
    readonly earlier: EarlierRun | undefined,
    private readonly lock: RunLock,
    private readonly write: typeof writeSync,
  ) {}

  // Takes the lock of this input's journal (another chamberctl running it is refused at once,
  // naming it) and reads what an earlier run left. A journal damaged anywhere but in its last
  // line (the torn line of a killed run, which is ignored) is refused with a clear message, the
  // lock released.
  static async open(
    configDir: string,
    key: JournalKey,
    options: { write?: typeof writeSync } = {},
  ): Promise<Journal> {
    ensureConfigDir(configDir)
    const dir = journalsDir(configDir)
    forgetOld(dir)
    const hash = createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 32)
    const file = path.join(dir, `${hash}.ndjson`)
    keepIgnoringFileSizeSignal()
    const lock = await RunLock.acquire(path.join(dir, `${hash}.lock`)).catch((error: unknown) => {
      if (error instanceof LockedError) {
        const { pid, host } = error.owner
        const where = host === hostname() ? '' : ` on ${host}`
        throw new UsageError(
          `another chamberctl (process ${pid}${where}) is running this same input against ` +
            `${key.target}; wait for it to end`,
        )
      }
      if (error instanceof CliError) throw error
      throw new CliError(`cannot lock the journal ${file}: ${describeFsError(error)}`)
    })
    try {
      const write: typeof writeSync = options.write ?? writeSync
      const journal = new Journal(file, readJournal(file), lock, (fd, ...rest) => {
        if (lock.lost) throw lock.lost
        return (write as (...args: unknown[]) => number)(fd, ...rest)
      })
      return journal
    } catch (error) {
      lock.release()
      throw error
    }
  }

  // Starts this run's journal: with the earlier run's entries carried over when it continues
  // that run (written to a new file, renamed over the old one, so a torn line never precedes
  // new ones), or empty.
  begin(carried?: ReadonlyMap<string, JournalEntry>): void {
    const text = [...(carried ?? [])].map(([item, entry]) => line({ item, ...entry })).join('')
    const fresh = `${this.path}.${process.pid}.tmp`
    try {
      // A draft a killed process of the same pid left is no one's.
      rmSync(fresh, { force: true })
      const fd = openSync(fresh, CREATE_NEW, 0o600)
      try {
        this.writeWhole(fd, text)
      } finally {
        closeSync(fd)
      }
      renameSync(fresh, this.path)
      this.fd = openSync(this.path, APPEND, 0o600)
    } catch (error) {
      rmSync(fresh, { force: true })
      throw error instanceof JournalWriteError ? error : new JournalWriteError(this.path, error)
    }
  }

  // Synchronous: the line is in the file before the request it announces leaves, and a killed
  // process leaves at worst one torn last line. Throws JournalWriteError: then the request must
  // not be sent.
  sending(item: string): void {
    this.append(this.settled + line({ item, status: 'sending' }))
    this.settled = ''
  }

  settle(item: string, entry: Exclude<JournalEntry, { status: 'sending' }>): void {
    this.settled += line({ item, ...entry })
  }

  // Ends the run: the outcomes not yet written and how the run ended, kept for a re-run to find.
  // The lock is released whatever happens; a write that fails now is thrown after that (one that
  // failed during the run was thrown then).
  close(end: JournalEnd): void {
    if (this.released) return
    let failure: unknown
    try {
      if (this.fd !== undefined && !this.failed) this.append(this.settled + line({ end }))
    } catch (error) {
      failure = error
    } finally {
      this.release()
    }
    if (failure) throw failure
  }

  // Lets the lock go without writing (a refused run, an error before the first request).
  release(): void {
    if (this.released) return
    this.released = true
    if (this.fd !== undefined) closeSync(this.fd)
    this.lock.release()
  }

  private append(text: string): void {
    if (this.failed) throw this.failed
    if (this.fd === undefined) throw new Error('the journal was not begun')
    try {
      this.writeWhole(this.fd, text)
    } catch (error) {
      this.failed =
        error instanceof JournalWriteError ? error : new JournalWriteError(this.path, error)
      throw this.failed
    }
  }

  // A short write is continued where it stopped; a write of nothing is a failure.
  private writeWhole(fd: number, text: string): void {
    const bytes = Buffer.from(text)
    for (let offset = 0; offset < bytes.length;) {
      let written: number
      try {
        written = this.write(fd, bytes, offset, bytes.length - offset)
      } catch (error) {
        throw new JournalWriteError(this.path, error)
      }
      if (!(written > 0)) throw new JournalWriteError(this.path, new Error('nothing was written'))
      offset += written
    }
  }
}

// Node ignores SIGXFSZ, so a write past a file size limit (`ulimit -f`) fails with EFBIG and is
// reported like any failed write. proper-lockfile's signal-exit (loaded by the embedded sandbox
// and the profiles' lock) listens for it and, when it is the only listener, raises it again,
// which kills the process mid-run: a listener of our own keeps Node's way.
let ignoringFileSizeSignal = false
function keepIgnoringFileSizeSignal(): void {
  if (ignoringFileSizeSignal || process.platform === 'win32') return
  ignoringFileSizeSignal = true
  process.on('SIGXFSZ', () => {})
}

// <config dir>/journals, private to the user; anything else in its place (a file, a symbolic
// link: nothing is written through one) is one line with the fix.
function journalsDir(configDir: string): string {
  const dir = path.join(configDir, 'journals')
  const found = lstatSync(dir, { throwIfNoEntry: false })
  if (found !== undefined && !found.isDirectory()) {
    const what = found.isSymbolicLink()
      ? 'a symbolic link'
      : found.isFile()
        ? 'a file'
        : 'not a directory'
    throw new CliError(
      `${dir} is ${what}, where chamberctl keeps the journals of bulk runs; move or remove it, ` +
        'then run the command again',
    )
  }
  ensureConfigDir(dir)
  return dir
}

// Everything in the journals directory that no run has written for KEEP_DAYS: journals, and what
// killed runs left (their locks and temporary files). A held lock is touched every few seconds,
// and a journal is written by every run that continues it. Forgetting is housekeeping: what
// cannot be removed now is tried again by the next run.
function forgetOld(dir: string): void {
  const now = Date.now()
  for (const name of readdirSync(dir)) {
    const entry = path.join(dir, name)
    try {
      if (now - lstatSync(entry).mtimeMs > KEEP_MS) rmSync(entry, { recursive: true, force: true })
    } catch {
      // Removed by another run meanwhile, or not ours to remove.
    }
  }
}

function line(entry: Record<string, unknown>): string {
  return `${JSON.stringify(entry)}\n`
}

function readJournal(file: string): EarlierRun | undefined {
  const text = readIfPresent(file, 'the journal')
  if (text === undefined) return undefined
  const entries = new Map<string, JournalEntry>()
  let end: JournalEnd | undefined
  const lines = text.split('\n')
  // The text after the last newline: a line a killed run (or a full disk) left torn.
  const torn = lines.length - 1
  for (const [index, text] of lines.entries()) {
    if (text.trim() === '') continue
    const entry = parseLine(text)
    if (entry === undefined) {
      if (index === torn) continue
      throw new UsageError(
        `the journal ${file} is damaged at line ${index + 1}, so it cannot tell what an earlier ` +
          'run of this input sent; run the same command with --skip-existing to send only the ' +
          'records not already on the server (that starts a new journal)',
      )
    }
    if ('end' in entry) end = entry.end
    else {
      const { item, ...rest } = entry
      entries.set(item, rest)
      end = undefined
    }
  }
  // A journal killed before its first line holds nothing to resume.
  return entries.size > 0 ? { entries, end } : undefined
}

function parseLine(
  text: string,
): ({ item: string } & JournalEntry) | { end: JournalEnd } | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const { item, status, id, error, end } = value as Record<string, unknown>
  if (end === 'finished' || end === 'stopped') return { end }
  if (typeof item !== 'string' || typeof status !== 'string' || !STATUSES.has(status)) {
    return undefined
  }
  if (id !== undefined && typeof id !== 'string') return undefined
  return {
    item,
    status: status as JournalStatus,
    ...(id === undefined ? {} : { id }),
    ...(isError(error) ? { error } : {}),
  }
}

function isError(value: unknown): value is JournalError {
  if (typeof value !== 'object' || value === null) return false
  const { code, message } = value as Record<string, unknown>
  return typeof code === 'string' && typeof message === 'string'
}
