// --jq's fast path (src/io/jq-path.ts) against jq 1.8.2's own test cases (jq.test, man.test):
// every program it takes gives jq's expected outputs wherever it answers, byte for byte what jq
// -c prints; every program jq refuses to compile (%%FAIL) it leaves to jq. The cases live outside
// the repository, in the shared data beside it: .ci/run's conformance step names them in
// JQ_TESTS, and without it this file skips.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadJq } from 'jq-wasm'
import { describe, expect, it } from 'vitest'
import { pathFilter, runPath } from '../../src/io/jq-path.js'

const dir = process.env.JQ_TESTS

type Case = { line: number; program: string; input: string; expected: string[]; fails: boolean }

// As jq's own runner (src/jq_test.c) reads them: blank and `#` lines between cases; a program,
// its input and its outputs up to the next such line; `%%FAIL` before a program that must not
// compile, followed by its message.
function readCases(text: string): Case[] {
  const lines = text.split('\n')
  const skipped = (line: string | undefined) => line === undefined || /^[ \t]*(#|$)/.test(line)
  const cases: Case[] = []
  let fails = false
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (skipped(line)) continue
    if (line.startsWith('%%FAIL')) {
      fails = true
      continue
    }
    const start = i
    const input = fails ? '' : lines[++i]!
    const expected: string[] = []
    while (!skipped(lines[i + 1])) expected.push(lines[++i]!)
    cases.push({ line: start + 1, program: line, input, expected, fails })
    fails = false
  }
  return cases
}

describe.skipIf(!dir)("--jq fast path against jq 1.8.2's test cases", () => {
  it.each(['jq.test', 'man.test'])('%s', async (file) => {
    const jq = await loadJq()
    const cases = readCases(readFileSync(join(dir!, file), 'utf8'))
    let taken = 0
    let answered = 0
    for (const { line, program, input, expected, fails } of cases) {
      const steps = pathFilter(program)
      const where = `${file}:${line}: ${program}`
      if (fails) expect(steps, where).toBeUndefined()
      if (fails || steps === undefined) continue
      taken++
      const out = runPath(steps, input)
      if (out === undefined) continue
      answered++
      const values = out === '' ? [] : out.split('\n').map((l) => JSON.parse(l) as unknown)
      expect(values, where).toEqual(expected.map((l) => JSON.parse(l) as unknown))
      expect(jq.raw(input, program, ['-c']), where).toEqual({
        stdout: out,
        stderr: '',
        exitCode: 0,
      })
    }
    process.stderr.write(
      `${file}: ${cases.length} cases, the fast path takes ${taken} programs, answers ${answered}\n`,
    )
    expect(answered).toBeGreaterThan(0)
  })
})
