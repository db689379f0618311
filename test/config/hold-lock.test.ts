import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { holdLock } from '../../src/config/lock.js'
import { useTempDirs } from './helpers.js'

const tempDir = useTempDirs()

// The pid of a process that has certainly ended.
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!
}

describe('holdLock', () => {
  it('holds the lock with this process as its holder until released', async () => {
    const lock = path.join(tempDir(), 'sandbox.json.lock')
    const release = await holdLock(lock, { timeoutMs: 1000 })
    expect(readFileSync(path.join(lock, 'pid'), 'utf8')).toBe(String(process.pid))
    release()
    expect(existsSync(lock)).toBe(false)
  })

  it('breaks a lock whose holder is dead, however young', async () => {
    const lock = path.join(tempDir(), 'sandbox.json.lock')
    mkdirSync(lock)
    writeFileSync(path.join(lock, 'pid'), String(deadPid()))
    const release = await holdLock(lock, { timeoutMs: 1000 })
    expect(readFileSync(path.join(lock, 'pid'), 'utf8')).toBe(String(process.pid))
    release()
  })

  it('waits for a live holder and gives up at the timeout naming it', async () => {
    const lock = path.join(tempDir(), 'sandbox.json.lock')
    const release = await holdLock(lock, { timeoutMs: 1000 })
    await expect(holdLock(lock, { timeoutMs: 100 })).rejects.toThrow(
      `held by another chamberctl (pid ${process.pid})`,
    )
    release()
  })

  it('goes ahead as soon as the holder releases it', async () => {
    const lock = path.join(tempDir(), 'sandbox.json.lock')
    const releaseFirst = await holdLock(lock, { timeoutMs: 1000 })
    const second = holdLock(lock, { timeoutMs: 10_000 })
    releaseFirst()
    const releaseSecond = await second
    expect(readFileSync(path.join(lock, 'pid'), 'utf8')).toBe(String(process.pid))
    releaseSecond()
  })
})
