// Durable storage for the sandbox's `--data FILE`. Every write goes to a temporary file that is
// fsynced and renamed over the real one, so a crash at any moment leaves either the previous or
// the next complete file. Commits that arrive while a write is on disk are grouped into the next
// write, so 200 concurrent creates cost a handful of fsyncs, not 200.
import { open, readFile, rename, unlink } from 'node:fs/promises'
import { dirname } from 'node:path'

export async function readDataFile(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

export async function writeFileAtomic(path: string, contents: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`
  const file = await open(temporary, 'w', 0o600)
  try {
    await file.writeFile(contents)
    await file.sync()
  } finally {
    await file.close()
  }
  try {
    await rename(temporary, path)
  } catch (error) {
    await unlink(temporary).catch(() => {})
    throw error
  }
  // The rename itself is durable only once the directory entry is.
  const directory = await open(dirname(path), 'r')
  try {
    await directory.sync()
  } catch {
    // Some filesystems refuse fsync on a directory; the rename has still happened.
  } finally {
    await directory.close()
  }
}

type Waiter = { resolve: () => void; reject: (error: unknown) => void }

export class GroupCommitter {
  private waiters: Waiter[] = []
  private running: Promise<void> | undefined

  constructor(
    private readonly path: string,
    private readonly serialize: () => string,
  ) {}

  // Resolves once a snapshot taken after this call is on disk.
  commit(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject })
      this.running ??= this.drain()
    })
  }

  // Resolves when no write is under way: every commit so far has settled.
  async settled(): Promise<void> {
    while (this.running) await this.running
  }

  private async drain(): Promise<void> {
    while (this.waiters.length > 0) {
      const batch = this.waiters
      this.waiters = []
      try {
        await writeFileAtomic(this.path, this.serialize())
        for (const waiter of batch) waiter.resolve()
      } catch (error) {
        for (const waiter of batch) waiter.reject(error)
        // Let the failed writers roll their records back before the next snapshot is taken.
        await new Promise((resolve) => setImmediate(resolve))
      }
    }
    this.running = undefined
  }
}
