// The journal of a bulk run (`members add --from-file`, `seed`): every item's outcome, appended
// as it happens to <config dir>/journals/<key>.ndjson, so that a run that ends early in any way
// (Ctrl-C, failures, a lost network, kill -9) can be continued with --resume without creating
// anything twice. The key is a hash of the server, the target and the input's content, so the
// same command on the same file finds its journal and nothing else does.
//
// An item is written `sending` before its request leaves and settled after: one left `sending`
// may or may not exist on the server, and is checked before it is sent again. A settled line
// goes out with the next `sending` line (or at the end), one write a request instead of two: a
// killed run leaves at most the items of one round of requests more to check. A run that leaves
// nothing to do removes its journal.
import { createHash } from 'node:crypto'
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import path from 'node:path'
import { CliError, UsageError } from '../errors.js'
import { describeFsError, ensureConfigDir } from './dir.js'
import { holdLock } from './lock.js'

export type JournalStatus = 'sending' | 'created' | 'skipped' | 'failed' | 'unknown'
export type JournalEntry = { status: JournalStatus; id?: string }

export type JournalKey = {
  kind: string
  // Where the items go, e.g. the base URL and a chamber id.
  target: string
  // The items as they would be sent.
  content: unknown
}

export class Journal {
  private closed = false
  // Settled lines not yet written.
  private settled = ''

  private constructor(
    readonly path: string,
    // The last outcome of each item in earlier runs (empty for a fresh run).
    readonly earlier: ReadonlyMap<string, JournalEntry>,
    private readonly fd: number,
    private readonly release: () => void,
  ) {}

  static async open(configDir: string, key: JournalKey, resume: boolean): Promise<Journal> {
    ensureConfigDir(configDir)
    const dir = path.join(configDir, 'journals')
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const hash = createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 32)
    const file = path.join(dir, `${hash}.ndjson`)
    const release = await holdLock(`${file}.lock`, { timeoutMs: 2_000 }).catch(() => {
      throw new UsageError(
        `another chamberctl is running this same input against ${key.target}; wait for it to end`,
      )
    })
    try {
      // A journal killed before its first line holds nothing to resume.
      const found = readEntries(file)
      const earlier = found !== undefined && found.size > 0 ? found : undefined
      if (earlier === undefined && resume) {
        throw new UsageError(
          `nothing to resume: no unfinished run of this input against ${key.target} ` +
            '(a run that leaves nothing to do removes its journal)',
        )
      }
      if (earlier !== undefined && !resume) {
        const created = [...earlier.values()].filter((e) => e.status === 'created').length
        throw new UsageError(
          `an earlier run of this input against ${key.target} ended early (${created} created); ` +
            `continue it with --resume, or remove ${file} to send everything again`,
        )
      }
      const fd = openSync(file, 'a', 0o600)
      return new Journal(file, earlier ?? new Map(), fd, release)
    } catch (error) {
      release()
      if (error instanceof CliError) throw error
      throw new CliError(`cannot open the journal ${file}: ${describeFsError(error)}`)
    }
  }

  // Synchronous: the line is in the file before the request it announces leaves, and a killed
  // process leaves at worst one torn last line.
  sending(item: string): void {
    writeSync(this.fd, this.settled + line({ item, status: 'sending' }))
    this.settled = ''
  }

  settle(item: string, status: Exclude<JournalStatus, 'sending'>, id?: string): void {
    this.settled += line(id === undefined ? { item, status } : { item, status, id })
  }

  // Ends the run: `done` when nothing is left to do, which removes the journal.
  close(done: boolean): void {
    if (this.closed) return
    this.closed = true
    if (!done && this.settled !== '') writeSync(this.fd, this.settled)
    closeSync(this.fd)
    if (done) rmSync(this.path, { force: true })
    this.release()
  }
}

function line(entry: Record<string, string>): string {
  return `${JSON.stringify(entry)}\n`
}

function readEntries(file: string): Map<string, JournalEntry> | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  const entries = new Map<string, JournalEntry>()
  for (const line of text.split('\n')) {
    let entry: { item?: unknown; status?: unknown; id?: unknown }
    try {
      entry = JSON.parse(line) as typeof entry
    } catch {
      continue // the torn last line of a killed run, or an empty one
    }
    if (typeof entry.item !== 'string' || typeof entry.status !== 'string') continue
    entries.set(entry.item, {
      status: entry.status as JournalStatus,
      ...(typeof entry.id === 'string' ? { id: entry.id } : {}),
    })
  }
  return entries
}
