// The built binary with --jq: jq's WebAssembly module is found beside the bundle.
import { describe, expect, it } from 'vitest'
import {
  BIG_CHAMBER,
  BIG_CHAMBER_MEMBERS,
  credentialsEnv,
  useSandbox,
  useTempDirs,
} from '../helpers/sandbox.js'
import { lines } from '../helpers/output.js'
import { runCli } from '../helpers/run-cli.js'

const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-e2e-jq-')

describe('--jq (built)', () => {
  it('filters each record of a paginated list, and refuses a bad expression with exit 2', async () => {
    const options = { configDir: tempDir(), env: credentialsEnv(sandbox()) }
    const each = await runCli(
      [
        'members',
        'list',
        BIG_CHAMBER,
        '--all',
        '-o',
        'ndjson',
        '--jq',
        'select(.id == "mb_000002") | .id',
      ],
      options,
    )
    expect(each).toMatchObject({ code: 0, stdout: 'mb_000002\n', stderr: '' })

    const all = await runCli(
      ['api', `/chambers/${BIG_CHAMBER}/members`, '--paginate', '--jq', 'length'],
      options,
    )
    expect(all).toMatchObject({ code: 0, stdout: `${BIG_CHAMBER_MEMBERS}\n` })

    const bad = await runCli(['chambers', 'list', '--jq', 'map(.id'], options)
    expect(bad.code).toBe(2)
    expect(lines(bad.stderr)[0]).toMatch(/^error: --jq: jq: error: syntax error/)
  })

  it('keeps jq-wasm`s own words off stderr when jq runs out of memory', async () => {
    const options = { configDir: tempDir(), env: credentialsEnv(sandbox()) }
    const result = await runCli(
      ['chambers', 'get', 'ch_0001', '--jq', '"x" * (3e8 + length)'],
      options,
    )
    const message = "--jq: jq ran out of memory (jq's WebAssembly build has 256 MiB)"
    expect(result).toMatchObject({ code: 1, stdout: '' })
    // The line, and as JSON output asks, the error object: no `Aborted()` of emscripten's.
    expect(lines(result.stderr)).toEqual([
      `error: ${message}`,
      JSON.stringify({ error: { status: null, code: 'jq_out_of_memory', message, fields: {} } }),
    ])
  })
})
