// `chamberctl sandbox --host`: what a container runs (0.0.0.0) really listens and answers, reached
// over loopback only; any loopback address can be chosen; `--check` is the container's health
// check. Nothing here leaves the machine.
import { describe, expect, it } from 'vitest'
import { closedPortUrl, startFakeApi } from '../helpers/fake-api.js'
import { CHAMBER_IDS, useTempDirs } from '../helpers/sandbox.js'
import { tsvColumn } from '../helpers/output.js'
import { runCli, startCli } from '../helpers/run-cli.js'

const tempDir = useTempDirs('chamberctl-sandbox-host-')
const WARNING = /^warning: listening on (\S+), not loopback: .*reachable from the network$/m

// Starts `chamberctl sandbox --port 0 ARGS` (a --port in ARGS wins), gives `test` the port it
// serves on, stops it.
async function serving(
  args: string[],
  test: (port: number, origin: string, stderr: () => string) => Promise<void>,
) {
  const server = startCli(['sandbox', '--port', '0', ...args], {
    configDir: tempDir(),
    stdin: 'ignore',
    timeoutMs: 20_000,
  })
  try {
    const [, origin, port] = await server.waitFor(
      'stdout',
      /^v2 base URL: +(http:\/\/\S+:(\d+))\/v2$/m,
    )
    await server.waitFor('stderr', /^Serving;/m)
    await test(Number(port), origin!, server.stderr)
  } finally {
    server.child.kill('SIGTERM')
  }
  const { code } = await server.exited
  expect(code).toBe(0)
}

async function listOver(origin: string) {
  return runCli(['chambers', 'list', '--type', 'hq'], {
    configDir: tempDir(),
    env: {
      CHAMBERCTL_BASE_URL: `${origin}/v2`,
      CHAMBERCTL_CLIENT_ID: 'sandbox-client',
      CHAMBERCTL_CLIENT_SECRET: 'sandbox-secret',
    },
  })
}

describe('chamberctl sandbox --host', () => {
  it('0.0.0.0 listens on every interface (reached here over 127.0.0.1), with a warning', async () => {
    await serving(['--host', '0.0.0.0'], async (port, origin, stderr) => {
      expect(stderr().match(WARNING)?.[1]).toBe('0.0.0.0')
      // The base URLs it prints are ones to connect to: over loopback.
      expect(origin).toBe(`http://127.0.0.1:${port}`)
      const list = await listOver(origin)
      expect(list.code, list.stderr).toBe(0)
      expect(tsvColumn(list.stdout)).toEqual(CHAMBER_IDS.slice(0, 4))
      const check = await runCli(['sandbox', '--check', '--host', '0.0.0.0', '--port', `${port}`], {
        configDir: tempDir(),
      })
      expect(check.code, check.stderr).toBe(0)
      expect(check.stdout).toBe(`sandbox up at http://127.0.0.1:${port}/_sandbox/health\n`)
    })
  })

  it.skipIf(process.platform !== 'linux')(
    'another loopback address (127.0.0.2) is served there, not on 127.0.0.1, without a warning',
    async () => {
      // 127.0.0.1 on the same port is held by a server that is not a sandbox.
      const other = await startFakeApi()
      const port = String(other.port)
      try {
        await serving(['--host', '127.0.0.2', '--port', port], async (_port, origin, stderr) => {
          expect(origin).toBe(`http://127.0.0.2:${port}`)
          expect(stderr()).not.toMatch(WARNING)
          const list = await listOver(`http://127.0.0.2:${port}`)
          expect(list.code, list.stderr).toBe(0)
          const args = ['sandbox', '--check', '--port', port]
          const there = await runCli([...args, '--host', '127.0.0.2'], { configDir: tempDir() })
          expect(there.code, there.stderr).toBe(0)
          const elsewhere = await runCli(args, { configDir: tempDir() })
          expect(elsewhere.code).toBe(1)
          expect(elsewhere.stderr).toBe(
            `error: http://127.0.0.1:${port}/_sandbox/health answered 404, not 200: not a sandbox?\n`,
          )
        })
      } finally {
        await other.close()
      }
    },
  )

  it.each(['localhost.example', '999.0.0.1', '127.0.0.1:4010', ''])(
    'refuses %j before listening: exit 2',
    async (host) => {
      const { code, stdout, stderr } = await runCli(['sandbox', '--host', host], {
        configDir: tempDir(),
      })
      expect(code).toBe(2)
      expect(stdout).toBe('')
      expect(stderr).toMatch(
        /^error: option '--host <address>' argument .* is invalid\. expected an IP address/,
      )
      expect(stderr.trim().split('\n')).toHaveLength(1)
    },
  )
})

describe('chamberctl sandbox --check', () => {
  it('exits 1 with the reason when nothing answers', async () => {
    const port = new URL(await closedPortUrl()).port
    const { code, stdout, stderr } = await runCli(['sandbox', '--check', '--port', port], {
      configDir: tempDir(),
    })
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toBe(
      `error: no sandbox answers at http://127.0.0.1:${port}/_sandbox/health: ECONNREFUSED\n`,
    )
  })
})
