// The bulk journal's lock (and isAlive, for the sandbox's leftover files), until the journal
// moves to proper-lockfile as the config file's lock and the sandbox import's have. mkdir is atomic on every local filesystem and on NFS, which an O_EXCL
// lock file is not everywhere.
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { CliError } from '../errors.js'
import { describeFsError } from './dir.js'

// A lock held across awaits for as long as a slow job needs. It is stale only once its holder is dead, whatever its age. Resolves to the
// function that releases it.
// A lock without a pid is its holder's between mkdir and write, unless it is this old.
const STALE_MS = 5_000

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
    const dead = holder === undefined ? isOlderThan(lockPath, STALE_MS) : !isAlive(holder)
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
