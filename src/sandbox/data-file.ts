// The file behind `--data FILE`: what it holds (a SQLite database, or the JSON data file of an
// earlier chamberctl, to be imported), the temporary files beside it, and replacing it whole.
import { closeSync, fsyncSync, openSync, readSync, readFileSync, readdirSync } from 'node:fs'
import { renameSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import * as z from 'zod/mini'
import { chamberSchema, eventSchema, memberSchema } from '../api/schemas.js'
import type { Chamber, Event, Member } from '../api/schemas.js'

export type StoredChamber = Chamber & { name: string; type: string; created_at: string }
export type StoredMember = Member & { chamber_id: string; email: string; joined_at: string }
export type StoredEvent = Event & { chamber_id: string; starts_at: string; ends_at: string }

export type Dataset = {
  chambers: StoredChamber[]
  members: StoredMember[]
  events: StoredEvent[]
}

export class DataFileError extends Error {}

const JSON_FORMAT = 'chamberctl-sandbox/1'

const jsonDataFileSchema = z.object({
  format: z.literal(JSON_FORMAT),
  chambers: z.array(
    z.extend(chamberSchema, { name: z.string(), type: z.string(), created_at: z.string() }),
  ),
  members: z.array(
    z.extend(memberSchema, { chamber_id: z.string(), email: z.string(), joined_at: z.string() }),
  ),
  events: z.array(
    z.extend(eventSchema, { chamber_id: z.string(), starts_at: z.string(), ends_at: z.string() }),
  ),
})

const SQLITE_HEADER = 'SQLite format 3\0'

// 'sqlite' also for a file that does not exist yet or is empty: SQLite makes a database of it.
export function dataFileKind(path: string): 'sqlite' | 'json' {
  let head: string
  try {
    const fd = openSync(path, 'r')
    try {
      const buffer = Buffer.alloc(SQLITE_HEADER.length)
      head = buffer.toString('latin1', 0, readSync(fd, buffer))
    } finally {
      closeSync(fd)
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'sqlite'
    throw error
  }
  if (head === '' || head === SQLITE_HEADER) return 'sqlite'
  if (/^\s*[[{]/.test(head)) return 'json'
  throw new DataFileError(`${path} is neither a SQLite database nor a chamberctl data file`)
}

export function readJsonDataFile(path: string): Dataset {
  let json: unknown
  try {
    json = JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    throw new DataFileError(`${path} is not valid JSON`)
  }
  const parsed = jsonDataFileSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new DataFileError(
      `${path} is not a chamberctl sandbox data file (${issue?.path.join('.') || 'format'}: ${issue?.message})`,
    )
  }
  return parsed.data
}

// Where this process builds a file that replaces `path`. Earlier versions wrote their atomic
// rewrites to the same name, so one cleanup serves both.
export function temporaryPath(path: string): string {
  return `${path}.${process.pid}.tmp`
}

// Temporary files of processes that died before renaming them (kill -9). A live process's file
// is its own business.
export function removeLeftovers(path: string): void {
  const dir = dirname(path)
  const pattern = new RegExp(`^${escapeRegExp(basename(path))}\\.(\\d+)\\.tmp(-journal)?$`)
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return
  }
  for (const name of names) {
    const pid = pattern.exec(name)?.[1]
    if (pid && !isAlive(Number(pid))) rmSync(join(dir, name), { force: true })
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: alive, and someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

// Renames a finished file over `path`, durably: the file's data first, then the directory entry.
export function replaceFile(temporary: string, path: string): void {
  syncPath(temporary)
  renameSync(temporary, path)
  try {
    syncPath(dirname(path))
  } catch {
    // Some filesystems refuse fsync on a directory; the rename has still happened.
  }
}

function syncPath(path: string): void {
  const fd = openSync(path, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
