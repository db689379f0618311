// gh's argv → options tests: the verb's module is mocked (vi.mock in the test file), the command
// line is parsed by the real program, and what the verb was handed is what the test checks. The
// verb's behaviour is tested apart, in <verb>.test.ts, against a server.
import { expect, it } from 'vitest'
import type { Mock } from 'vitest'
import { runMain } from './run-main.js'

// The options object the verb was called with for this command line.
export async function optionsOf(verb: Mock, args: string[]): Promise<unknown> {
  verb.mockClear()
  const { code, stderr } = await runMain(args)
  expect(stderr).toBe('')
  expect(code).toBe(0)
  expect(verb).toHaveBeenCalledTimes(1)
  return verb.mock.calls[0]![0]
}

// A command line refused before the verb runs: exit 2 and the one line that says why.
export async function refused(verb: Mock, args: string[]): Promise<string> {
  verb.mockClear()
  const { code, stdout, stderr } = await runMain(args)
  expect(code).toBe(2)
  expect(stdout).toBe('')
  expect(verb).not.toHaveBeenCalled()
  return stderr
}

type Cases = {
  // A command line and the options object the verb gets for it.
  parses: [string[], unknown][]
  // A command line and what the one line refusing it names.
  refuses?: [string[], string][]
}

export function argvCases(verb: Mock, { parses, refuses = [] }: Cases): void {
  it.each(parses)('%j', async (args, expected) => {
    expect(await optionsOf(verb, args)).toEqual(expected)
  })
  if (refuses.length) {
    it.each(refuses)('%j is refused before the verb runs', async (args, named) => {
      expect(await refused(verb, args)).toContain(named)
    })
  }
}
