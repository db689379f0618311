// src/v8-flags.ts, each seen in a new process (whose V8 flags are the defaults and whose young
// generation starts small): what V8 does while a setting is held, and that V8's flags are as
// they were whenever one is given back and at exit, as the code caches V8 takes or rejects tell.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { transformSync } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { V8_DEFAULTS } from '../src/v8-flags.js'

const MODULE = new URL('../src/v8-flags.ts', import.meta.url)

// Runs `body` in a new process, with `flags` = the module's exports; what it prints, parsed.
function inNewProcess(
  body: string,
  nodeOptions: string[] = [],
): { out: unknown; stdout: string; stderr: string } {
  const { code } = transformSync(readFileSync(MODULE, 'utf8'), { loader: 'ts', format: 'cjs' })
  const program = `
    const module = { exports: {} }
    new Function('module', 'exports', ${JSON.stringify(code)})(module, module.exports)
    const flags = module.exports
    const v8 = require('node:v8')
    const { Script } = require('node:vm')
    const { writeSync } = require('node:fs')
    ${body}`
  const child = spawnSync(process.execPath, [...nodeOptions, '-e', program], { encoding: 'utf8' })
  const last = child.stdout.trim().split('\n').at(-1)
  return { out: last ? JSON.parse(last) : undefined, stdout: child.stdout, stderr: child.stderr }
}

// V8's code cache of a script made at that moment, for a process with default flags to try.
const CACHE_NOW = `
  let scripts = 0
  const cacheNow = () => {
    const source = '(function f' + ++scripts + '() { return ' + scripts + ' })()'
    const script = new Script(source)
    script.runInThisContext()
    return { source, data: script.createCachedData().toString('base64') }
  }`

// Which of the caches a process with V8's default flags takes.
function taken(caches: unknown): Record<string, boolean> {
  const { out, stderr } = inNewProcess(`
    const taken = {}
    for (const [name, { source, data }] of Object.entries(${JSON.stringify(caches)})) {
      taken[name] = !new Script(source, { cachedData: Buffer.from(data, 'base64') }).cachedDataRejected
    }
    console.log(JSON.stringify(taken))`)
  expect(stderr).toBe('')
  return out as Record<string, boolean>
}

describe('V8 flags', () => {
  it('are the defaults of the Node that runs the tests', () => {
    const options = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout
    for (const [flag, value] of Object.entries(V8_DEFAULTS)) {
      expect(options).toContain(`default: --${flag}=${value}\n`)
    }
  })

  it('come back when the last of overlapping holds of the heap ends, once each', () => {
    const { out, stderr } = inNewProcess(`${CACHE_NOW}
      const first = flags.holdHeapFlat()
      const held = cacheNow()
      const second = flags.holdHeapFlat()
      first()
      first()
      const stillHeld = cacheNow()
      second()
      console.log(JSON.stringify({ held, stillHeld, released: cacheNow() }))`)
    expect(stderr).toBe('')
    expect(taken(out)).toEqual({ held: false, stillHeld: false, released: true })
  })

  it('come back at exit before the exit listeners registered earlier run', () => {
    // As src/start/code-cache.ts does: a listener registered first writes a cache at exit.
    const { out, stderr } = inNewProcess(`${CACHE_NOW}
      const caches = {}
      process.once('exit', () => {
        caches.atExit = cacheNow()
        writeSync(1, JSON.stringify(caches) + '\\n')
      })
      flags.holdHeapFlat()
      flags.holdWasmBaseline()
      caches.held = cacheNow()`)
    expect(stderr).toBe('')
    expect(taken(out)).toEqual({ held: false, atExit: true })
  })

  it('give tier-up back when jq is loaded, and do not hold it again after', () => {
    const { out, stderr } = inNewProcess(`${CACHE_NOW}
      flags.holdWasmBaseline()
      const held = cacheNow()
      flags.allowWasmTierUp()
      flags.holdWasmBaseline()
      console.log(JSON.stringify({ held, allowed: cacheNow() }))`)
    expect(stderr).toBe('')
    expect(taken(out)).toEqual({ held: false, allowed: true })
  })
})

describe('holdHeapFlat', () => {
  it('keeps the young generation small while held, and lets it grow after', () => {
    // Pages of records, the last four kept alive, as a list read page by page keeps them: the
    // survivors add up, and V8 doubles the young generation each time they reach its size.
    const { out, stderr } = inNewProcess(`
      const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size
      const walk = () => {
        const kept = []
        for (let page = 0; page < 20000; page++) {
          kept.push(Array.from({ length: 100 }, (_, i) => ({ id: 'm_' + page + '_' + i, name: 'Member ' + i })))
          if (kept.length > 4) kept.shift()
        }
        return newSpace()
      }
      const release = flags.holdHeapFlat()
      const held = walk()
      release()
      console.log(JSON.stringify({ held, after: walk() }))`)
    expect(stderr).toBe('')
    const { held, after } = out as { held: number; after: number }
    expect(held).toBeLessThanOrEqual(2 * 1024 * 1024)
    expect(after).toBeGreaterThanOrEqual(4 * held)
  })

  it('asks V8 for a full collection every quarter second over reads one after another', () => {
    // Holds far shorter than a quarter second, one after another, as a report reads one
    // chamber's members, then the next's: the collections asked for do not wait for one hold
    // to last that long (garbage that dies young alone makes V8 collect only the young
    // generation). gc() is borrowed for it: V8's flags are as they were after.
    const { out, stderr } = inNewProcess(`${CACHE_NOW}
      const { PerformanceObserver, constants } = require('node:perf_hooks')
      let full = 0
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) full += entry.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR
      }).observe({ entryTypes: ['gc'] })
      const turn = () => new Promise((resolve) => setImmediate(resolve))
      ;(async () => {
        let garbage
        for (const start = Date.now(); full < 4 && Date.now() - start < 5_000; ) {
          const release = flags.holdHeapFlat()
          for (let i = 0; i < 20; i++) {
            garbage = Array.from({ length: 1000 }, (_, i) => ({ i }))
            await turn()
          }
          release()
        }
        console.log(JSON.stringify({ full, after: cacheNow() }))
      })()`)
    expect(stderr).toBe('')
    const { full, after } = out as { full: number; after: unknown }
    expect(full).toBe(4)
    expect(taken({ after })).toEqual({ after: true })
  })
})

describe('holdWasmBaseline', () => {
  // A WebAssembly function that loops `n` times, called until V8 would optimize it.
  const HOT_WASM = `
    const body = [1, 1, 0x7f, 0x03, 0x40, 0x20, 1, 0x20, 0, 0x6a, 0x21, 1, 0x20, 0, 0x41, 1,
      0x6b, 0x21, 0, 0x20, 0, 0x0d, 0, 0x0b, 0x20, 1, 0x0b]
    const bytes = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 6, 1, 0x60, 1, 0x7f, 1, 0x7f,
      3, 2, 1, 0, 7, 5, 1, 1, 0x66, 0, 0, 0x0a, body.length + 2, 1, body.length, ...body])
    const { f } = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports
    let sum = 0
    for (let i = 0; i < 2000; i++) sum += f(10000)
    console.log(JSON.stringify(sum))`
  // How many functions V8 optimized, as it traces each WebAssembly function it compiles.
  const optimized = (setup: string) => {
    const { out, stdout, stderr } = inNewProcess(`${setup}\n${HOT_WASM}`, [
      '--trace-wasm-compilation-times',
    ])
    expect([out, stderr]).toEqual([100_010_000_000, ''])
    return stdout.split('\n').filter((line) => / using TurboFan/.test(line)).length
  }

  it('keeps WebAssembly on the baseline compiler until jq is loaded', () => {
    expect(optimized('')).toBe(1)
    expect(optimized('flags.holdWasmBaseline()')).toBe(0)
    expect(optimized('flags.holdWasmBaseline(); flags.allowWasmTierUp()')).toBe(1)
  })
})
