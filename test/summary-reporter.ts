// Ends a run with one plain line that any CI log reader understands. A run is red when a test
// failed, and also when a file failed without a failing test (it did not load, or a hook threw)
// or an error escaped every test: those count as failures too, so a red run never ends in
// "0 failed".
import type { Reporter, TestModule } from 'vitest/node'

type Module = Pick<TestModule, 'state' | 'relativeModuleId'> & {
  children: { allTests(): Iterable<{ result(): { state: string } }> }
}

export function summarize(modules: ReadonlyArray<Module>, unhandledErrors: number): string {
  const tests = { passed: 0, failed: 0, skipped: 0 }
  let files = 0
  let failedFiles = 0
  let filesWithoutFailedTest = 0
  for (const module of modules) {
    files++
    let failedHere = 0
    for (const test of module.children.allTests()) {
      const state = test.result().state
      if (state === 'passed' || state === 'failed' || state === 'skipped') tests[state]++
      if (state === 'failed') failedHere++
    }
    if (module.state() === 'failed') {
      failedFiles++
      if (failedHere === 0) filesWithoutFailedTest++
    }
  }
  const failed = tests.failed + filesWithoutFailedTest + unhandledErrors
  const why: string[] = []
  if (tests.failed) why.push(`${tests.failed} ${plural(tests.failed, 'test')}`)
  if (filesWithoutFailedTest) {
    why.push(
      `${filesWithoutFailedTest} ${plural(filesWithoutFailedTest, 'file')} with no failed test`,
    )
  }
  if (unhandledErrors) why.push(`${unhandledErrors} unhandled ${plural(unhandledErrors, 'error')}`)
  const detail = failed ? ` (${why.join(', ')}; ${failedFiles} of ${files} files failed)` : ''
  return `${tests.passed} passed, ${failed} failed, ${tests.skipped} skipped${detail}`
}

function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    process.stdout.write(`\n${summarize(modules, unhandledErrors.length)}\n`)
  }
}
