// A clone in an empty directory passes `npm test`, every time: nothing under test/ reaches
// outside the repository, property tests run on a fixed seed, and the run's last line counts
// every kind of failure.
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { chooseSeed } from '../helpers/fast-check.js'
import { ROOT } from '../helpers/run-cli.js'
import { summarize } from '../summary-reporter.js'

const TEST = join(ROOT, 'test')
// This file names what it looks for.
const SELF = 'test/repo/any-clone.test.ts'

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]),
    ),
  )
  return nested.flat()
}

describe('tests any clone passes', () => {
  it('no test reads outside the repository (the spec is spec/openapi.yaml)', async () => {
    const offenders: string[] = []
    for (const file of await files(TEST)) {
      const text = await readFile(file, 'utf8')
      // The path of the shared directory beside the repository, in any of the ways it is spelt.
      if (/\.\.\/shared\b|'\.\.', 'shared'|\/work\/shared/.test(text)) {
        offenders.push(relative(ROOT, file))
      }
    }
    expect(offenders.filter((f) => f !== SELF)).toEqual([])
  })

  it('property tests take fast-check from the seeded helper', async () => {
    const offenders: string[] = []
    for (const file of await files(TEST)) {
      if (file.endsWith(join('helpers', 'fast-check.ts')) || relative(ROOT, file) === SELF) continue
      if (/from 'fast-check'/.test(await readFile(file, 'utf8')))
        offenders.push(relative(ROOT, file))
    }
    expect(offenders).toEqual([])
  })

  it('the seed is fixed unless FC_SEED names one or asks for a random one', () => {
    expect(chooseSeed(undefined)).toBe(chooseSeed(''))
    expect(chooseSeed('42')).toBe(42)
    expect(Number.isSafeInteger(chooseSeed('random'))).toBe(true)
    expect(() => chooseSeed('soon')).toThrow(/FC_SEED/)
  })
})

describe('the summary line', () => {
  const test = (state: string) => ({ result: () => ({ state }) })
  const module = (state: string, tests: ReturnType<typeof test>[]) => ({
    state: () => state as 'passed',
    relativeModuleId: 'x.test.ts',
    children: { allTests: () => tests },
  })

  it('a green run', () => {
    expect(summarize([module('passed', [test('passed'), test('skipped')])], 0)).toBe(
      '1 passed, 0 failed, 1 skipped',
    )
  })

  it('counts a failed test', () => {
    expect(summarize([module('failed', [test('passed'), test('failed')])], 0)).toBe(
      '1 passed, 1 failed, 0 skipped (1 test; 1 of 1 files failed)',
    )
  })

  it('counts a file that failed without a failed test (it did not load)', () => {
    const line = summarize([module('passed', [test('passed')]), module('failed', [])], 0)
    expect(line).toBe(
      '1 passed, 1 failed, 0 skipped (1 file with no failed test; 1 of 2 files failed)',
    )
  })

  it('counts unhandled errors', () => {
    expect(summarize([module('passed', [test('passed')])], 2)).toBe(
      '1 passed, 2 failed, 0 skipped (2 unhandled errors; 0 of 1 files failed)',
    )
  })
})
