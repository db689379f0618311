// A smoke test of a single executable built for another architecture than the machine's, run
// under an emulator (.ci/run: the linux-arm64 binary under qemu-user). Such a binary carries no
// snapshot: it runs the bundle it carries through the code cache it writes at its first run.
// CHAMBERCTL_SMOKE_BINARY is the binary, CHAMBERCTL_SMOKE_RUNNER the emulator's command line
// (split on spaces), e.g. `qemu-aarch64 -L /usr/aarch64-linux-gnu`.
import { execFile } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { credentialsEnv, useSandbox, useTempDirs } from '../helpers/sandbox.js'
import { cliEnv, ROOT } from '../helpers/run-cli.js'

const BINARY = process.env.CHAMBERCTL_SMOKE_BINARY
const RUNNER = (process.env.CHAMBERCTL_SMOKE_RUNNER ?? '').split(' ').filter(Boolean)
const run = promisify(execFile)

const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-smoke-')
// An emulated start-up takes seconds, and more on a busy machine.
const SLOW = 180_000

describe.skipIf(!BINARY || RUNNER.length === 0)(
  `a cross-built binary under an emulator${BINARY ? '' : ': skipped, CHAMBERCTL_SMOKE_BINARY is not set'}`,
  () => {
    const [command, ...before] = [...RUNNER, path.resolve(ROOT, BINARY ?? '')]
    const chamberctl = (args: string[], configDir: string, env: NodeJS.ProcessEnv = {}) =>
      run(command!, [...before, ...args], { env: cliEnv(configDir, env), timeout: SLOW })

    it(
      'answers, writes its code cache at the first run and reads it at the next',
      async () => {
        const configDir = tempDir()
        const cache = path.join(configDir, 'cache')
        const env = { ...credentialsEnv(sandbox()), XDG_CACHE_HOME: cache }
        const version = await chamberctl(['--version'], configDir, env)
        expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/)

        const listed = await chamberctl(['chambers', 'list', '--json'], configDir, env)
        const chambers = JSON.parse(listed.stdout) as { id: string }[]
        expect(chambers.map((c) => c.id)).toContain('ch_0001')
        const dir = path.join(cache, 'chamberctl', 'v8')
        const [file, ...others] = readdirSync(dir)
        expect(others).toEqual([])
        expect(file).toMatch(/^chamberctl-[0-9a-f]{16}-node[\d.]+-arm64-chambers\.list\.cache$/)
        const written = statSync(path.join(dir, file!)).mtimeMs

        // jq's WebAssembly module is an asset of the binary.
        const first = await chamberctl(['chambers', 'list', '--jq', '.[0].id'], configDir, env)
        expect(first.stdout).toBe(`${chambers[0]!.id}\n`)
        expect(statSync(path.join(dir, file!)).mtimeMs).toBe(written)

        // The embedded sandbox, on node:sqlite.
        const embedded = await chamberctl(
          ['members', 'list', 'ch_0001', '--sandbox', '-o', 'ndjson'],
          configDir,
        )
        expect(embedded.stdout.trim().split('\n').length).toBeGreaterThan(0)
      },
      4 * SLOW,
    )
  },
)
