// The file behind `--data FILE`: the records it holds, the temporary files beside it, and
// replacing it whole.
import { closeSync, fsyncSync, openSync, renameSync } from 'node:fs'
import { dirname } from 'node:path'
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

// Where this process builds a file that replaces `path`.
export function temporaryPath(path: string): string {
  return `${path}.${process.pid}.tmp`
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
