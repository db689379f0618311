// completion-cache.json in the config directory: the chambers last listed for completion, per
// server, so that a burst of TABs costs one listing. Only a cache: a file that is missing,
// unreadable or malformed is simply a miss, and one that cannot be written is not an error.
import { randomBytes } from 'node:crypto'
import { readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { ensureConfigDir } from '../../config/dir.js'

export const CACHE_FILE = 'completion-cache.json'
export const CACHE_TTL_MS = 60_000
// Servers remembered at once; the least recently listed are dropped first.
const MAX_ENTRIES = 16

export type CachedChamber = { id: string; name?: string }

type Entry = { listed_at: number; chambers: CachedChamber[] }
type CacheFile = { entries: Record<string, Entry> }

export async function readCache(
  dir: string,
  key: string,
  now: number,
): Promise<CachedChamber[] | undefined> {
  const entry = (await load(dir)).entries[key]
  return entry && fresh(entry, now) ? entry.chambers : undefined
}

export async function writeCache(
  dir: string,
  key: string,
  chambers: CachedChamber[],
  now: number,
): Promise<void> {
  const entries = Object.entries((await load(dir)).entries)
    .filter(([other, entry]) => other !== key && fresh(entry, now))
    .sort(([, a], [, b]) => b.listed_at - a.listed_at)
    .slice(0, MAX_ENTRIES - 1)
  const file: CacheFile = {
    entries: Object.fromEntries([[key, { listed_at: now, chambers }], ...entries]),
  }
  ensureConfigDir(dir)
  // Written aside and renamed over the old one: a concurrent TAB reads one whole file or the
  // other, and the new file is private from its first byte.
  const target = path.join(dir, CACHE_FILE)
  const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    await writeFile(temp, JSON.stringify(file), { mode: 0o600, flag: 'wx' })
    await rename(temp, target)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

async function load(dir: string): Promise<CacheFile> {
  try {
    const parsed = JSON.parse(await readFile(path.join(dir, CACHE_FILE), 'utf8')) as unknown
    const entries = (parsed as Partial<CacheFile> | null)?.entries
    if (typeof entries !== 'object' || entries === null) return { entries: {} }
    return {
      entries: Object.fromEntries(Object.entries(entries).filter(([, entry]) => valid(entry))),
    }
  } catch {
    return { entries: {} }
  }
}

function valid(entry: unknown): entry is Entry {
  const { listed_at, chambers } = (entry ?? {}) as Partial<Entry>
  return (
    typeof listed_at === 'number' &&
    Array.isArray(chambers) &&
    chambers.every((chamber) => typeof chamber?.id === 'string')
  )
}

// A clock turned back makes an entry look young forever; one from the future is not trusted.
function fresh(entry: Entry, now: number): boolean {
  return entry.listed_at <= now && now - entry.listed_at < CACHE_TTL_MS
}
