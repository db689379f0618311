// Commander's own errors are said as every other error: fitted to the terminal by the one
// wrapping path (src/io/wrap.ts), one JSON object more for a script that asked for JSON.
import { describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main.js'
import { createTestIO } from '../helpers/test-io.js'

async function run(args: string[], width?: number) {
  const t = createTestIO({ stderrIsTTY: width !== undefined, stdoutWidth: width, env: {} })
  const code = await main(['node', 'chamberctl', ...args], t.io)
  return { code, stderr: t.stderr() }
}

const MESSAGE =
  "error: option '--per-page <n>' argument '500' is invalid. expected a whole number from 1 to 100"

describe("commander's errors", () => {
  it.each([40, 60])('fit a terminal %i columns wide, every word kept', async (width) => {
    const { code, stderr } = await run(['chambers', 'list', '--per-page', '500'], width)
    expect(code).toBe(2)
    const lines = stderr.trimEnd().split('\n')
    expect(lines.length).toBeGreaterThan(1)
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(width)
    expect(lines.join(' ').split(/\s+/)).toEqual(MESSAGE.split(/\s+/))
    expect(lines[1]).toMatch(/^ {7}\S/)
  })

  it('stay one line in a pipe, with the JSON object when JSON was asked for', async () => {
    expect((await run(['chambers', 'list', '--per-page', '500'])).stderr).toBe(`${MESSAGE}\n`)
    const { stderr } = await run(['chambers', 'list', '--per-page', '500', '--json'])
    const [line, json] = stderr.trimEnd().split('\n')
    expect(line).toBe(MESSAGE)
    expect(JSON.parse(json!)).toEqual({
      error: { status: null, code: 'usage', message: MESSAGE.slice('error: '.length), fields: {} },
    })
  })
})
