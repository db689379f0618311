// The manual travels in the bundle: its topics and the reference print from the built binary,
// the Markdown they are written in bundled as text into the chunk that prints them.
import { describe, expect, it } from 'vitest'
import { useTempDirs } from '../helpers/sandbox.js'
import { runCli } from '../helpers/run-cli.js'

const tempDir = useTempDirs('chamberctl-e2e-help-')

describe('the manual in the built binary', () => {
  it.each([
    [['help', 'environment'], '- CHAMBERCTL_TOKEN: '],
    [['help', 'exit-codes'], '- 130: interrupted'],
    [['help', 'reference'], '\nchamberctl members add\n'],
    [['api', '--help'], 'Paths only'],
  ])('%j', async (args, text) => {
    const { code, stdout, stderr } = await runCli(args, { configDir: tempDir() })
    expect(code).toBe(0)
    expect(stderr).toBe('')
    expect(stdout).toContain(text)
  })
})
