import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach } from 'vitest'

export const POSIX = process.platform !== 'win32'

// A fresh directory per call, removed after the test that asked for it.
export function useTempDirs(): () => string {
  const made: string[] = []
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  return () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'chamberctl-config-'))
    made.push(dir)
    return dir
  }
}

export function modeOf(file: string): number {
  return statSync(file).mode & 0o777
}

// Whose tokens a test caches: a client and a login of a profile (see tokenOwner).
export const OWNER = { client_id: 'c', login: 'l' }
