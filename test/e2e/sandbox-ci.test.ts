// The CI example of the sandbox's manual (src/commands/sandbox/manual.md, the sh block after
// `<!-- ci-example -->`) run as written, with `chamberctl` on PATH being the built CLI: start with
// --port 0 --port-file --json, wait for the file, seed, check /_sandbox/requests, reset.
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDirs } from '../helpers/sandbox.js'
import { CLI, ROOT, cliEnv, runCli, startCli } from '../helpers/run-cli.js'

const tempDir = useTempDirs('chamberctl-sandbox-ci-')

function ciExample(): string {
  const manual = readFileSync(path.join(ROOT, 'src/commands/sandbox/manual.md'), 'utf8')
  const script = /<!-- ci-example -->\s*```sh\n([^]*?)```/.exec(manual)?.[1]
  if (!script) throw new Error('manual.md has no ```sh block after <!-- ci-example -->')
  return script
}

describe('the CI example of the sandbox manual', () => {
  it('runs as written: start, port file, JSON line, seed, requests, reset', () => {
    const bin = tempDir()
    const shim = path.join(bin, 'chamberctl')
    const quoted = CLI.map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ')
    writeFileSync(shim, `#!/bin/sh\nexec ${quoted} "$@"\n`)
    chmodSync(shim, 0o755)
    const runnerTemp = tempDir()
    const run = spawnSync('bash', ['-euo', 'pipefail', '-c', ciExample()], {
      cwd: tempDir(),
      env: cliEnv(tempDir(), { PATH: `${bin}:${process.env.PATH}`, RUNNER_TEMP: runnerTemp }),
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0)
    const start = JSON.parse(readFileSync(path.join(runnerTemp, 'sandbox.json'), 'utf8'))
    expect(start).toEqual({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      base_urls: { v1: `${start.url}/v1`, v2: `${start.url}/v2` },
      port: Number(start.url.split(':').at(-1)),
      client_id: 'sandbox-client',
      client_secret: 'sandbox-secret',
    })
    expect(run.stdout).toMatch(/"status":"ok"/)
  })

  it('writes the port file after the JSON line and removes it when stopped', async () => {
    const portFile = path.join(tempDir(), 'sandbox.port')
    const server = startCli(['sandbox', '--port', '0', '--port-file', portFile, '-o', 'json'], {
      configDir: tempDir(),
      stdin: 'ignore',
      timeoutMs: 20_000,
    })
    const [line] = await server.waitFor('stdout', /^\{.*\}\n/)
    await server.waitFor('stderr', /^Serving;/m)
    expect(readFileSync(portFile, 'utf8')).toBe(`${JSON.parse(line!).port}\n`)
    server.child.kill('SIGTERM')
    const exited = await server.exited
    expect(exited.code, `${exited.signal} ${exited.stderr}`).toBe(0)
    expect(existsSync(portFile)).toBe(false)
  })

  it('stops with exit 1 and one line when the port file cannot be written', async () => {
    const portFile = path.join(tempDir(), 'missing', 'sandbox.port')
    const run = await runCli(['sandbox', '--port', '0', '--port-file', portFile, '-q'], {
      configDir: tempDir(),
      stdin: 'ignore',
      timeoutMs: 20_000,
    })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(new RegExp(`^error: cannot write --port-file ${portFile}: .*ENOENT`))
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
  })

  it('logs each request on stderr with a secret in its query masked', async () => {
    const server = startCli(['sandbox', '--port', '0', '--json'], {
      configDir: tempDir(),
      stdin: 'ignore',
      timeoutMs: 20_000,
    })
    try {
      const [line] = await server.waitFor('stdout', /^\{.*\}\n/)
      const { base_urls } = JSON.parse(line!) as { base_urls: { v2: string } }
      const answer = await fetch(`${base_urls.v2}/chambers?access_token=leak-me-please&page=2`)
      expect(answer.status).toBe(401)
      await answer.body?.cancel()
      await server.waitFor('stderr', /^GET \/v2\/chambers\?access_token=\S+ 401 /m)
      expect(server.stderr()).toMatch(
        /^GET \/v2\/chambers\?access_token=%5Bredacted%5D&page=2 401 /m,
      )
      expect(server.stderr()).not.toContain('leak-me-please')
    } finally {
      server.child.kill('SIGTERM')
    }
    expect((await server.exited).code).toBe(0)
  })
})
