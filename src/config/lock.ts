// A cross-process lock around a config file's read-modify-write, so that two chamberctl processes
// refreshing tokens of different profiles at once do not drop each other's write. mkdir is atomic
// on every local filesystem and on NFS, which an O_EXCL lock file is not everywhere.
import {
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { CliError } from '../errors.js'
import { describeFsError } from './dir.js'

export type LockOptions = {
  // A lock older than this was left by a process that died inside the critical section.
  staleMs?: number
  // Give up after this long; must exceed staleMs so that a stale lock is always broken first.
  timeoutMs?: number
}

const DEFAULTS = { staleMs: 5_000, timeoutMs: 10_000 }

// `critical` is synchronous on purpose: the lock is then held for the few milliseconds of one
// read and one atomic write, never across an await, so a live holder never looks stale.
export async function withLock<T>(
  lockPath: string,
  critical: () => T,
  options: LockOptions = {},
): Promise<T> {
  await acquire(lockPath, { ...DEFAULTS, ...options })
  try {
    return critical()
  } finally {
    release(lockPath)
  }
}

async function acquire(lockPath: string, options: Required<LockOptions>): Promise<void> {
  const deadline = Date.now() + options.timeoutMs
  for (;;) {
    try {
      mkdirSync(lockPath, { mode: 0o700 })
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new CliError(`cannot lock ${lockPath}: ${describeFsError(error)}`)
      }
    }
    if (breakIfStale(lockPath, options.staleMs)) continue
    if (Date.now() >= deadline) {
      throw new CliError(
        `config is locked by another chamberctl process (${lockPath}); ` +
          'remove that directory if no chamberctl is running',
      )
    }
    // Jitter keeps contending processes from retrying in lockstep.
    await sleep(5 + Math.random() * 20)
  }
}

// A lock held across awaits for as long as a slow job needs (the sandbox's one-time import of a
// JSON data file). It is stale only once its holder is dead, whatever its age. Resolves to the
// function that releases it.
export async function holdLock(
  lockPath: string,
  options: { timeoutMs: number },
): Promise<() => void> {
  const deadline = Date.now() + options.timeoutMs
  for (;;) {
    try {
      mkdirSync(lockPath, { mode: 0o700 })
      writeFileSync(join(lockPath, 'pid'), String(process.pid), { mode: 0o600 })
      return () => rmSync(lockPath, { recursive: true, force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new CliError(`cannot lock ${lockPath}: ${describeFsError(error)}`)
      }
    }
    const holder = holderOf(lockPath)
    // No pid yet: its holder is between mkdir and write, or died there.
    const dead = holder === undefined ? isOlderThan(lockPath, DEFAULTS.staleMs) : !isAlive(holder)
    if (dead) {
      breakLock(lockPath)
      continue
    }
    if (Date.now() >= deadline) {
      throw new CliError(
        `${lockPath} is held by another chamberctl (pid ${holder ?? 'unknown'}); ` +
          'try again when it has finished',
      )
    }
    await sleep(20 + Math.random() * 30)
  }
}

function holderOf(lockPath: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(lockPath, 'pid'), 'utf8'))
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function isOlderThan(path: string, ms: number): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs >= ms
  } catch {
    return true
  }
}

function breakLock(lockPath: string): void {
  const grave = `${lockPath}.stale-${process.pid}-${Math.random().toString(36).slice(2)}`
  try {
    renameSync(lockPath, grave)
    rmSync(grave, { recursive: true, force: true })
  } catch {
    // Another process broke it first.
  }
}

function breakIfStale(lockPath: string, staleMs: number): boolean {
  let mtimeMs: number
  try {
    mtimeMs = statSync(lockPath).mtimeMs
  } catch {
    return true // released meanwhile: retry at once
  }
  if (Date.now() - mtimeMs < staleMs) return false
  // Renaming first means that of several processes seeing the same stale lock only one removes
  // it. A newer lock that one of them took in between can still be broken by a slow peer; that
  // costs at worst one lost update in a window of microseconds after a crash, never a torn file,
  // since every write is an atomic rename.
  breakLock(lockPath)
  return true
}

function release(lockPath: string): void {
  try {
    rmdirSync(lockPath)
  } catch {
    // Already broken as stale by a peer; nothing of ours is left to clean up.
  }
}
