// The launcher's code caches (src/start/code-cache.ts): which one a command line reads, and how
// many of them a cache directory keeps. That the caches are written and read:
// test/e2e/process.test.ts.
import {
  chmodSync,
  chownSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { commandKey, MAX_CACHES, readCache, writeCache } from '../../src/start/code-cache.js'
import { useTempDirs } from '../helpers/sandbox.js'

const tempDir = useTempDirs('chamberctl-code-cache-')
const DAY = 24 * 60 * 60 * 1000
const POSIX = process.platform !== 'win32'
const ROOT = process.getuid?.() === 0

// The v8 directory of a cache directory of the test's own (a temporary directory's parent is
// writable by everyone, which a cache directory may not be).
function v8Dir(): string {
  const dir = path.join(tempDir(), 'v8')
  mkdirSync(dir, { mode: 0o700 })
  return dir
}

describe('commandKey', () => {
  it.each([
    [['chambers', 'list', '--json'], 'chambers.list'],
    [['chambers', 'list', '--jq', '.[0].id'], 'chambers.list.jq'],
    [['--jq=.id', 'chambers', 'get', 'ch_1'], 'chambers.get.jq'],
    [['--profile', 'prod', 'members', 'add', 'ch_1', '--name', 'A'], 'members.add'],
    [['-o', 'json', 'events', 'view', 'ev_1'], 'events.view'],
    [['auth', 'token'], 'auth.token'],
    [['__complete', 'chamber-ids'], '__complete.chamber-ids'],
    [['login', '--base-url', 'https://x.example'], 'login'],
    [['members', 'ch_0001'], 'members'],
    [['api', '/chambers'], 'api'],
    [['chambers'], 'chambers'],
    [['--help'], 'other'],
    [[], 'other'],
    [['frobnicate', 'list'], 'other'],
    // A value that is not a word of a command never names a file of its own.
    [['members', 'Robert; rm -rf /'], 'members'],
    [['members', '../../etc'], 'members'],
    [['members', 'x'.repeat(40)], 'members'],
  ])('%j reads the cache of %s', (args, key) => {
    expect(commandKey(args)).toBe(key)
  })
})

describe('writeCache', () => {
  const PREFIX = 'chamberctl-0123456789abcdef-node24.0.0-x64-'
  const names = (dir: string) => readdirSync(dir).sort()

  it('writes a file of its own only (0600), atomically, nothing left beside it', () => {
    const dir = v8Dir()
    const file = path.join(dir, `${PREFIX}chambers.list.cache`)
    writeCache(file, PREFIX, Buffer.from('cache'))
    expect(names(dir)).toEqual([path.basename(file)])
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it(`writes no more than ${MAX_CACHES} caches of one bundle on one Node`, () => {
    const dir = v8Dir()
    for (let i = 0; i < MAX_CACHES; i++) writeFileSync(path.join(dir, `${PREFIX}c${i}.cache`), '')
    // Another bundle's do not count.
    writeFileSync(path.join(dir, 'chamberctl-fedcba9876543210-node24.0.0-x64-x.cache'), '')
    const before = names(dir)
    writeCache(path.join(dir, `${PREFIX}one-more.cache`), PREFIX, Buffer.from('cache'))
    expect(names(dir)).toEqual(before)
    const fewer = v8Dir()
    for (let i = 0; i < MAX_CACHES - 1; i++) {
      writeFileSync(path.join(fewer, `${PREFIX}c${i}.cache`), '')
    }
    writeCache(path.join(fewer, `${PREFIX}one-more.cache`), PREFIX, Buffer.from('cache'))
    expect(names(fewer)).toHaveLength(MAX_CACHES)
  })

  it("removes another bundle's or Node's caches and leftovers unwritten for 30 days, no others", () => {
    const dir = v8Dir()
    const now = Date.now()
    const files = {
      oldOther: 'chamberctl-fedcba9876543210-node24.0.0-x64-chambers.list.cache',
      oldNode: 'chamberctl-0123456789abcdef-node22.13.0-x64-chambers.list.cache',
      oldLeftover: `${PREFIX}login.cache.4242.tmp`,
      recentOther: 'chamberctl-fedcba9876543210-node24.0.0-x64-login.cache',
      oldOurs: `${PREFIX}members.list.cache`,
    }
    for (const name of Object.values(files)) writeFileSync(path.join(dir, name), '')
    const age = (name: string, days: number) => {
      const at = new Date(now - days * DAY)
      utimesSync(path.join(dir, name), at, at)
    }
    age(files.oldOther, 31)
    age(files.oldNode, 31)
    age(files.oldLeftover, 31)
    age(files.recentOther, 29)
    // This bundle's own are never rewritten, so an old one is still this bundle's cache.
    age(files.oldOurs, 400)
    writeCache(path.join(dir, `${PREFIX}chambers.list.cache`), PREFIX, Buffer.from('c'), now)
    expect(names(dir)).toEqual(
      [files.recentOther, files.oldOurs, `${PREFIX}chambers.list.cache`].sort(),
    )
  })

  it('only costs speed when the directory cannot be written', () => {
    const parent = tempDir()
    // A file where the directory should be.
    writeFileSync(path.join(parent, 'v8'), '')
    const file = path.join(parent, 'v8', `${PREFIX}chambers.list.cache`)
    expect(() => writeCache(file, PREFIX, Buffer.from('cache'))).not.toThrow()
    expect(names(parent)).toEqual(['v8'])
  })

  it.runIf(POSIX)('writes nothing into a cache directory others can write to', () => {
    const dir = v8Dir()
    chmodSync(path.dirname(dir), 0o777)
    writeCache(path.join(dir, `${PREFIX}login.cache`), PREFIX, Buffer.from('cache'))
    chmodSync(path.dirname(dir), 0o700)
    chmodSync(dir, 0o770)
    writeCache(path.join(dir, `${PREFIX}login.cache`), PREFIX, Buffer.from('cache'))
    expect(names(dir)).toEqual([])
  })

  it.runIf(ROOT)('writes nothing into a cache directory of another user', () => {
    const dir = v8Dir()
    chownSync(dir, 65534, 65534)
    writeCache(path.join(dir, `${PREFIX}login.cache`), PREFIX, Buffer.from('cache'))
    expect(names(dir)).toEqual([])
  })

  it.runIf(POSIX)('never writes through a symbolic link', () => {
    const dir = v8Dir()
    const target = path.join(tempDir(), 'elsewhere')
    writeFileSync(target, 'theirs')
    const file = path.join(dir, `${PREFIX}login.cache`)
    symlinkSync(target, file)
    writeCache(file, PREFIX, Buffer.from('cache'))
    expect(readFileSync(target, 'utf8')).toBe('theirs')
  })

  // Node's own recursive mkdir retries forever there, and the process ignores SIGTERM.
  it.runIf(process.platform === 'linux')('gives up at once under /proc', () => {
    const file = path.join('/proc', `chamberctl-${process.pid}`, 'v8', `${PREFIX}login.cache`)
    expect(() => writeCache(file, PREFIX, Buffer.from('cache'))).not.toThrow()
  })
})

describe.runIf(POSIX)('readCache', () => {
  const write = (mode = 0o600) => {
    const file = path.join(v8Dir(), 'a.cache')
    writeFileSync(file, 'cache', { mode })
    chmodSync(file, mode)
    return file
  }

  it('reads a cache of the user’s own', () => {
    expect(readCache(write())?.toString()).toBe('cache')
  })

  it('ignores one others can write to, or a symbolic link', () => {
    expect(readCache(write(0o622))).toBeUndefined()
    const link = path.join(tempDir(), 'link.cache')
    symlinkSync(write(), link)
    expect(readCache(link)).toBeUndefined()
  })

  it.runIf(ROOT)('ignores one of another user (root too)', () => {
    const file = write()
    chownSync(file, 65534, 65534)
    expect(readCache(file)).toBeUndefined()
  })
})
