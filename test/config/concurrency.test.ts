// Several chamberctl processes may write the config directory at once: config.json must always
// parse, and with the store's lock no update of a profile may be lost; token refreshes write each
// profile's own cache file (under the lock, which checks the login they belong to), never
// config.json.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CliError } from '../../src/errors.js'
import { ProfileStore } from '../../src/config/profiles.js'
import { useTempDirs } from './helpers.js'

const tempDir = useTempDirs()
const CHILDREN = 6
const ROUNDS = 25

// A counter in a string field: each update must see the one before it.
const bump = (p: { client_id?: string } | undefined) => ({
  ...p,
  client_id: String(Number(p?.client_id ?? 0) + 1),
})

describe('concurrent updates in one process', () => {
  it('two stores on one file lose no update', async () => {
    const dir = tempDir()
    const a = ProfileStore.open(dir)
    const b = ProfileStore.open(dir)
    const work: Promise<unknown>[] = []
    for (let i = 0; i < 40; i++) {
      work.push(a.update('shared', bump), b.update('shared', bump))
      work.push(a.update(`a${i}`, { client_secret: `a${i}` }))
      work.push(b.update(`b${i}`, { client_secret: `b${i}` }))
    }
    await Promise.all(work)
    const profiles = a.list()
    expect(profiles.shared).toEqual({ client_id: '80' })
    expect(Object.keys(profiles)).toHaveLength(81)
    expect(profiles.b39).toEqual({ client_secret: 'b39' })
    expect(existsSync(`${a.path}.lock`)).toBe(false)
  })
})

describe('the lock', () => {
  it('breaks a lock left behind by a crashed process', async () => {
    const dir = tempDir()
    const store = ProfileStore.open(dir, { lock: { staleMs: 1_000 } })
    const lock = `${store.path}.lock`
    mkdirSync(lock)
    const past = new Date(Date.now() - 60_000)
    utimesSync(lock, past, past)
    await store.update('a', { client_id: 'a' })
    expect(store.get('a')).toEqual({ client_id: 'a' })
    expect(existsSync(lock)).toBe(false)
  })

  it('gives up on a live lock after the timeout with a clear error', async () => {
    const dir = tempDir()
    const store = ProfileStore.open(dir, { lock: { staleMs: 60_000, timeoutMs: 200 } })
    const lock = `${store.path}.lock`
    mkdirSync(lock)
    await expect(store.update('a', { client_id: 'a' })).rejects.toThrow(CliError)
    await expect(store.remove('a')).rejects.toThrow(`locked by another chamberctl process`)
    expect(existsSync(lock)).toBe(true)
    expect(existsSync(store.path)).toBe(false)
  })

  it('is released when the update function throws', async () => {
    const dir = tempDir()
    const store = ProfileStore.open(dir)
    await expect(
      store.update('a', () => {
        throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    expect(existsSync(`${store.path}.lock`)).toBe(false)
    await store.update('a', { client_id: 'a' })
  })
})

describe('concurrent child processes', () => {
  const bundleDir = mkdtempSync(path.join(tmpdir(), 'chamberctl-bundle-'))
  const storeModule = path.join(bundleDir, 'profiles.mjs')
  const jsonFileModule = path.join(bundleDir, 'json-file.mjs')
  afterAll(() => rmSync(bundleDir, { recursive: true, force: true }))

  beforeAll(async () => {
    // Node 20 cannot import TypeScript, so the children import a bundle of the store, which
    // loads the project's own proper-lockfile from node_modules.
    const root = fileURLToPath(new URL('../..', import.meta.url))
    const require = createRequire(import.meta.url)
    await build({
      absWorkingDir: root,
      entryPoints: ['src/config/profiles.ts', 'src/config/json-file.ts'],
      outdir: bundleDir,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      format: 'esm',
      platform: 'node',
      logLevel: 'warning',
      plugins: [
        {
          name: 'project-packages',
          setup(b) {
            b.onResolve({ filter: /^proper-lockfile$/ }, ({ path: name }) => ({
              path: pathToFileURL(require.resolve(name)).href,
              external: true,
            }))
          },
        },
      ],
    })
  })

  // Polls the file while the children run: any torn or partial write would fail to parse.
  async function runWhileReading(file: string, scripts: string[]): Promise<number> {
    let reads = 0
    let running = true
    const reader = (async () => {
      while (running) {
        if (existsSync(file)) {
          let text = ''
          try {
            text = readFileSync(file, 'utf8')
          } catch (error) {
            // The rename can race with open() on some filesystems; a missing file is not torn.
            if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
            continue
          }
          expect(() => JSON.parse(text), text).not.toThrow()
          reads++
        }
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    try {
      await Promise.all(scripts.map(runNode))
    } finally {
      running = false
      await reader
    }
    return reads
  }

  it('never leave a torn file, even with bare writes and no lock', async () => {
    const dir = tempDir()
    const file = path.join(dir, 'config.json')
    const scripts = Array.from(
      { length: CHILDREN },
      (_, child) => `
        import { readFileSync } from 'node:fs'
        import { writeKeys } from ${JSON.stringify(pathToFileURL(jsonFileModule).href)}
        const file = ${JSON.stringify(file)}
        const parse = (text) => (text === '' ? {} : JSON.parse(text))
        for (let i = 0; i < ${ROUNDS}; i++) {
          let text = ''
          try { text = readFileSync(file, 'utf8') } catch {}
          const profiles = parse(text).profiles ?? {}
          profiles['p${child}'] = { access_token: 'token-' + i, padding: 'x'.repeat(4096) }
          writeKeys(file, { profiles }, parse)
          await new Promise((resolve) => setImmediate(resolve))
        }
      `,
    )
    await runWhileReading(file, scripts)
    // Without a lock profiles of other children may be lost, but the file is whole.
    const { profiles } = JSON.parse(readFileSync(file, 'utf8'))
    expect(Object.keys(profiles).length).toBeGreaterThan(0)
  })

  it('lose no update through ProfileStore', async () => {
    const dir = tempDir()
    const scripts = Array.from(
      { length: CHILDREN },
      (_, child) => `
        import { ProfileStore } from ${JSON.stringify(pathToFileURL(storeModule).href)}
        const store = ProfileStore.open(${JSON.stringify(dir)})
        for (let i = 0; i < ${ROUNDS}; i++) {
          await store.update('p${child}', { access_token: 'token-' + i })
          await store.update('shared', (p) => ({ ...p, token_expires_at: (p?.token_expires_at ?? 0) + 1 }))
        }
      `,
    )
    const file = path.join(dir, 'config.json')
    await runWhileReading(file, scripts)
    const { profiles } = JSON.parse(readFileSync(file, 'utf8'))
    expect(profiles.shared).toEqual({ token_expires_at: CHILDREN * ROUNDS })
    for (let child = 0; child < CHILDREN; child++) {
      expect(profiles[`p${child}`]).toEqual({ access_token: `token-${ROUNDS - 1}` })
    }
    expect(existsSync(`${file}.lock`)).toBe(false)
  })

  it('refreshing tokens of different profiles keep each one, and never write config.json', async () => {
    const dir = tempDir()
    const store = ProfileStore.open(dir)
    const owner = { client_id: 'c', login: 'l' }
    for (let child = 0; child < CHILDREN; child++) {
      await store.save(`p${child}`, { base_url: 'https://api.example.com/v2', ...owner })
    }
    const config = readFileSync(store.path, 'utf8')
    const scripts = Array.from(
      { length: CHILDREN },
      (_, child) => `
        import { ProfileStore } from ${JSON.stringify(pathToFileURL(storeModule).href)}
        const store = ProfileStore.open(${JSON.stringify(dir)})
        for (let i = 0; i < ${ROUNDS}; i++) {
          const token = { access_token: 'token-' + i, expires_at: i }
          await store.saveToken('p${child}', 'https://api.example.com/v2', token, ${JSON.stringify(owner)})
        }
      `,
    )
    await Promise.all(scripts.map(runNode))
    for (let child = 0; child < CHILDREN; child++) {
      expect(store.tokens(`p${child}`).get('https://api.example.com/v2', owner)).toEqual({
        access_token: `token-${ROUNDS - 1}`,
        expires_at: ROUNDS - 1,
      })
    }
    expect(readFileSync(store.path, 'utf8')).toBe(config)
    expect(existsSync(`${store.path}.lock`)).toBe(false)
  })
})

function runNode(script: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0 && output === '') resolve()
      else reject(new Error(`child exited with ${code}: ${output}`))
    })
  })
}
