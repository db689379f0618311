// holdYoungGeneration: while a walk over pages runs, V8 keeps the young generation at its size
// (seen in a new process, whose young generation starts small), and V8's flags come back as they
// were when the last walk ends (seen by code caches, which V8 rejects when its flags differ).
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { transformSync } from 'esbuild'
import { describe, expect, it } from 'vitest'

const MODULE = new URL('../../src/api/young-generation.ts', import.meta.url)

// Runs `body` in a new process (whose young generation starts small, and whose V8 flags are
// the defaults) with `hold` = holdYoungGeneration; what it prints, parsed.
function inNewProcess(body: string): Record<string, unknown> {
  const { code } = transformSync(readFileSync(MODULE, 'utf8'), { loader: 'ts', format: 'cjs' })
  const program = `
    const module = { exports: {} }
    new Function('module', 'exports', ${JSON.stringify(code)})(module, module.exports)
    const hold = module.exports.holdYoungGeneration
    const v8 = require('node:v8')
    const { Script } = require('node:vm')
    ${body}`
  const child = spawnSync(process.execPath, ['-e', program], { encoding: 'utf8' })
  expect(child.stderr).toBe('')
  return JSON.parse(child.stdout) as Record<string, unknown>
}

// V8's code cache of a script made at this moment, for a process with default flags to try.
const CACHE_NOW = `
  let scripts = 0
  const cacheNow = () => {
    const source = '(function f' + ++scripts + '() { return ' + scripts + ' })()'
    const script = new Script(source)
    script.runInThisContext()
    return { source, data: script.createCachedData().toString('base64') }
  }`

describe('holdYoungGeneration', () => {
  it('gives V8 its flags back when the last of overlapping holds ends, once each', () => {
    const caches = inNewProcess(`${CACHE_NOW}
      const first = hold()
      const held = cacheNow()
      const second = hold()
      first()
      first()
      const stillHeld = cacheNow()
      second()
      console.log(JSON.stringify({ held, stillHeld, released: cacheNow() }))`)
    const taken = inNewProcess(`
      const caches = ${JSON.stringify(caches)}
      const taken = {}
      for (const [name, { source, data }] of Object.entries(caches)) {
        taken[name] = !new Script(source, { cachedData: Buffer.from(data, 'base64') }).cachedDataRejected
      }
      console.log(JSON.stringify(taken))`)
    expect(taken).toEqual({ held: false, stillHeld: false, released: true })
  })

  it('keeps the young generation small while held, and lets it grow after', () => {
    // Pages of records, the last four kept alive, as a list read page by page keeps them: the
    // survivors add up, and V8 doubles the young generation each time they reach its size.
    const { held, after } = inNewProcess(`
      const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size
      const walk = () => {
        const kept = []
        for (let page = 0; page < 20000; page++) {
          kept.push(Array.from({ length: 100 }, (_, i) => ({ id: 'm_' + page + '_' + i, name: 'Member ' + i })))
          if (kept.length > 4) kept.shift()
        }
        return newSpace()
      }
      const release = hold()
      const held = walk()
      release()
      console.log(JSON.stringify({ held, after: walk() }))`)
    expect(held).toBeLessThanOrEqual(2 * 1024 * 1024)
    expect(after).toBeGreaterThanOrEqual(4 * (held as number))
  })
})
