// The lock that lets one run of one input at a time use its journal, across processes (contract
// §3 "One run of one input at a time"): a file naming its owner (process id, host, and on Linux
// the process's start), written whole under a temporary name and linked into place, which fails
// when a lock is there, so another process never reads half an owner.
//
// A lock is held for as long as its owner lives, so a second run is refused at once, naming it,
// and never waits. On the owner's host that is asked of the system: a process id that is gone, or
// that now belongs to a process started at another moment (ids are reused; Linux says when each
// process started, and in which boot), frees the lock at once, so a run killed with kill -9
// blocks nothing. A lock taken on another host (a config directory shared over the network)
// cannot be asked about: its owner touches it every REFRESH_MS, and one left untouched for
// REMOTE_STALE_MS is taken over. A stale lock is taken over under a short second lock, so that
// two processes taking it over at once cannot both win.
import { randomUUID } from 'node:crypto'
import {
  linkSync,
  mkdirSync,
  readFileSync,
  rmSync,
  rmdirSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { hostname } from 'node:os'
import { readIfPresent } from './dir.js'
import { CliError } from '../errors.js'

export type LockOwner = { pid: number; host: string; started?: string; token: string }

const REFRESH_MS = 10_000
const REMOTE_STALE_MS = 60_000
// The second lock is held for the few system calls of a takeover; one older than this was left
// by a process that died in between.
const TAKEOVER_STALE_MS = 10_000
const ATTEMPTS = 20

// A live process holds the lock.
export class LockedError extends Error {
  constructor(readonly owner: LockOwner) {
    super(`locked by process ${owner.pid} on ${owner.host}`)
  }
}

export class RunLock {
  // Set when another process took the lock over (this one stalled past REMOTE_STALE_MS as seen
  // from another host): the journal's next write stops the run instead of racing it.
  lost: Error | undefined
  private readonly timer: NodeJS.Timeout

  private constructor(
    readonly file: string,
    private readonly token: string,
  ) {
    this.timer = setInterval(() => this.refresh(), REFRESH_MS)
    this.timer.unref()
  }

  // Takes the lock, or throws LockedError naming the live process that holds it.
  static async acquire(file: string): Promise<RunLock> {
    const me: LockOwner = {
      pid: process.pid,
      host: hostname(),
      ...startOf(process.pid),
      token: randomUUID(),
    }
    // A name of its own, created afresh (never written through a link): two takers in one
    // process never share it.
    const draft = `${file}.${me.token}.tmp`
    try {
      writeFileSync(draft, JSON.stringify(me), { mode: 0o600, flag: 'wx' })
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        try {
          linkSync(draft, file)
          return new RunLock(file, me.token)
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
        }
        const owner = readOwner(file)
        if (owner === undefined) continue
        if (holds(owner, file)) throw new LockedError(owner)
        takeOver(file, owner)
        // Another process taking it over at this moment: give it the time of a few calls.
        await new Promise((resolve) => setTimeout(resolve, attempt))
      }
    } finally {
      rmSync(draft, { force: true })
    }
    throw new CliError(`cannot take over the lock ${file}: other processes keep taking it`)
  }

  // Lets the lock go, if it is still this process's. One that cannot be removed now is left: it
  // holds nothing once this process is gone.
  release(): void {
    clearInterval(this.timer)
    try {
      if (this.lost === undefined && this.owned()) rmSync(this.file, { force: true })
    } catch {
      // Left for the next run to take over.
    }
  }

  private refresh(): void {
    if (this.lost) return
    if (!this.owned()) {
      this.lost = new CliError(
        `another chamberctl took over the lock ${this.file} while this run was stalled`,
      )
      clearInterval(this.timer)
      return
    }
    const now = new Date()
    try {
      utimesSync(this.file, now, now)
    } catch {
      // The next refresh tries again; only a lock left untouched for a minute can be taken.
    }
  }

  // Whether the lock file still names this lock; true when it cannot be read this moment.
  private owned(): boolean {
    try {
      return readOwner(this.file)?.token === this.token
    } catch {
      return true
    }
  }
}

// The owner a lock file names; undefined when it is gone (released meanwhile). A file that names
// no process (written by something else) holds nothing.
function readOwner(file: string): LockOwner | undefined {
  const text = readIfPresent(file, 'the lock')
  if (text === undefined) return undefined
  try {
    const owner = JSON.parse(text) as Partial<LockOwner>
    if (Number.isSafeInteger(owner.pid) && typeof owner.host === 'string') {
      return { token: '', ...owner } as LockOwner
    }
  } catch {
    // Not an owner: free to take.
  }
  return { pid: 0, host: '', token: '' }
}

// Whether the lock's owner is alive (on this host), or has touched the lock lately (on another).
function holds(owner: LockOwner, file: string): boolean {
  if (owner.pid <= 0) return false
  if (owner.host !== hostname()) {
    const touched = statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0
    return Date.now() - touched < REMOTE_STALE_MS
  }
  try {
    process.kill(owner.pid, 0)
  } catch (error) {
    // EPERM: it exists, under another user.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false
  }
  const now = startOf(owner.pid).started
  return owner.started === undefined || now === undefined || now === owner.started
}

// Replaces a stale lock, under a second lock: the stale file is removed only if it still names
// the owner found stale (not the lock another process has just taken in its place).
function takeOver(file: string, stale: LockOwner): void {
  const guard = `${file}.takeover`
  try {
    mkdirSync(guard, { mode: 0o700 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    const made = statSync(guard, { throwIfNoEntry: false })?.mtimeMs
    if (made !== undefined && Date.now() - made > TAKEOVER_STALE_MS) {
      rmSync(guard, { recursive: true, force: true })
    }
    return
  }
  try {
    const owner = readOwner(file)
    if (owner?.pid === stale.pid && owner.token === stale.token) unlinkSync(file)
  } finally {
    rmdirSync(guard)
  }
}

// When a process started, as Linux tells it: the boot and the clock ticks since it. Elsewhere
// (and for a process that is gone) nothing: the process id alone decides.
function startOf(pid: number): { started?: string } {
  if (process.platform !== 'linux') return {}
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces and parentheses): state is field 3,
    // starttime field 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
    return { started: `${boot}:${fields[19]}` }
  } catch {
    return {}
  }
}
