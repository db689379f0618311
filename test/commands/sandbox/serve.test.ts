// sandbox: what the start tells a person and a script (the server itself is tested in
// test/sandbox/).
import { afterEach, describe, expect, it } from 'vitest'
import { startMain, until, useTempDirs } from '../../helpers/cli.js'

const tempDir = useTempDirs()

// Ctrl-C as the command sees it: the once-listeners serve registered for SIGINT.
afterEach(() => {
  process.emit('SIGINT', 'SIGINT')
})

async function started(args: string[]) {
  const env = { CHAMBERCTL_CONFIG_DIR: tempDir() }
  const cli = startMain(['sandbox', '--port', '0', '--empty', ...args], { env })
  await until(cli.stderr, /Serving; press Ctrl-C to stop\./)
  process.emit('SIGINT', 'SIGINT')
  return cli.done
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
