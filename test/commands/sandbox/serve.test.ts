// sandbox: what the start tells a person and a script (the server itself is tested in
// test/sandbox/).
import { describe, expect, it } from 'vitest'
import { startSession } from '../../helpers/run-main.js'
import { until } from '../../helpers/output.js'
import { useTempDirs } from '../../helpers/sandbox.js'

const tempDir = useTempDirs()

// Ctrl-C as the command sees it: the SIGINT listener the command added is called (not the test
// runner's own), then every signal listener it added is removed, as its process would exit.
async function started(args: string[]) {
  const env = { CHAMBERCTL_CONFIG_DIR: tempDir() }
  const signals = ['SIGINT', 'SIGTERM'] as const
  const before = new Set(signals.flatMap((signal) => process.listeners(signal)))
  const added = () =>
    signals.map((signal) => process.listeners(signal).filter((listener) => !before.has(listener)))
  const cli = startSession(['sandbox', '--port', '0', '--empty', ...args], { env })
  await until(cli.stderr, /Serving; press Ctrl-C to stop\./)
  const [onInt, onTerm] = added()
  for (const listener of onInt!) (listener as (signal: string) => void)('SIGINT')
  const result = await cli.done
  for (const listener of onInt!) process.removeListener('SIGINT', listener)
  for (const listener of onTerm!) process.removeListener('SIGTERM', listener)
  expect(added().flat()).toEqual([])
  return result
}

describe('sandbox start', () => {
  it('prints ready-to-paste export lines on stderr, the banner on stdout', async () => {
    const { code, stdout, stderr } = await started([])
    expect(code).toBe(0)
    const v2 = stdout.match(/^v2 base URL: +(\S+)$/m)![1]
    expect(stderr).toContain(
      [
        `export CHAMBERCTL_BASE_URL='${v2}'`,
        `export CHAMBERCTL_CLIENT_ID='sandbox-client'`,
        `export CHAMBERCTL_CLIENT_SECRET='sandbox-secret'`,
      ].join('\n'),
    )
    expect(stdout).not.toContain('export ')
  })

  it('--json: one JSON line on stdout and no export lines', async () => {
    const { code, stdout, stderr } = await started(['--json'])
    expect(code).toBe(0)
    expect(stdout.trim().split('\n')).toHaveLength(1)
    expect(Object.keys(JSON.parse(stdout))).toEqual([
      'url',
      'base_urls',
      'port',
      'client_id',
      'client_secret',
    ])
    expect(stderr).not.toContain('export ')
  })
})
