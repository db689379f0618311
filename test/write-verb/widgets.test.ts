// A create verb added in the test suite only, through the same declaration as the shipped ones
// (widgets.ts, create.ts, index.ts beside this file), run against a loopback server of its own:
// one record from flags, prompts refused without a terminal, many from a file with
// --skip-existing, a re-run refused, the flag rules before the verb, and the write verbs' common
// rules found by walking the command tree.
import path from 'node:path'
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createContext } from '../../src/cli/main.js'
import type * as ProgramModule from '../../src/cli/program.js'
import { runMain } from '../helpers/run-main.js'
import type { RunOptions } from '../helpers/run-main.js'
import { useTempDirs } from '../helpers/sandbox.js'
import { startFakeApi } from '../helpers/fake-api.js'
import type { FakeApi, FakeRequest, Reply } from '../helpers/fake-api.js'
import { createTestIO } from '../helpers/test-io.js'
import { inputArgs, writeVerbs } from '../helpers/writes.js'

// The program main() builds, with the test-only noun registered as a shipped one is.
vi.mock('../../src/cli/program.js', async (importOriginal) => {
  const real = await importOriginal<typeof ProgramModule>()
  const { registerWidgets } = await import('./index.js')
  return {
    ...real,
    createProgram: (...args: Parameters<typeof real.createProgram>) => {
      const program = real.createProgram(args[0])
      registerWidgets(program, args[0])
      return program
    },
  }
})

type Widget = Record<string, unknown> & { id: string }

// The widgets API on 127.0.0.1: POST and GET /v2/widgets, each request logged.
let api: FakeApi
let root = ''
const stored: Widget[] = []
const requests: string[] = []

function answer(request: FakeRequest): Reply {
  const url = new URL(request.path, 'http://localhost')
  requests.push(`${request.method} ${url.pathname}`)
  if (url.pathname !== '/v2/widgets') return { status: 404, body: { error: 'not found' } }
  if (request.method === 'POST') {
    const widget = { ...JSON.parse(request.body), id: `wd_${stored.length + 1}` } as Widget
    stored.push(widget)
    return { status: 201, body: widget }
  }
  const page = Number(url.searchParams.get('page') ?? 1)
  const perPage = Number(url.searchParams.get('per_page') ?? 25)
  const data = stored.slice((page - 1) * perPage, page * perPage)
  return { body: { data, meta: { current_page: page, per_page: perPage, total: stored.length } } }
}

beforeAll(async () => {
  api = await startFakeApi({ answer, token: false })
  root = api.url
})
afterAll(() => api.close())

const tempDir = useTempDirs('chamberctl-widgets-')
let configDir = ''
beforeEach(() => {
  configDir = tempDir()
  stored.length = 0
  requests.length = 0
})

function run(args: string[], options: RunOptions = {}) {
  return runMain(args, {
    ...options,
    env: {
      CHAMBERCTL_BASE_URL: `${root}/v2`,
      CHAMBERCTL_TOKEN: 'test-token',
      CHAMBERCTL_CONFIG_DIR: configDir,
      ...options.env,
    },
  })
}

describe('widgets create: a write verb declared in the test suite', () => {
  it('creates one widget from flags: the record on stdout, the line on stderr', async () => {
    const { code, stdout, stderr } = await run([
      'widgets',
      'create',
      '--name',
      'Gear',
      '--code',
      'g1',
      '--json',
    ])
    expect(code, stderr).toBe(0)
    expect(JSON.parse(stdout)).toEqual({ id: 'wd_1', name: 'Gear', code: 'g1' })
    expect(stderr).toBe('Created widget wd_1 (g1)\n')
    expect(stored).toEqual([{ id: 'wd_1', name: 'Gear', code: 'g1' }])
  })

  it('names the missing flags when it cannot prompt, before anything is sent', async () => {
    const { code, stderr } = await run(['widgets', 'create', '--name', 'Gear', '--no-input'])
    expect(code).toBe(2)
    expect(stderr).toBe('error: missing --code (not prompting: no terminal, --no-input or CI)\n')
    expect(requests).toEqual([])
  })

  it('creates many from a file, skips what exists, and refuses a plain re-run', async () => {
    stored.push({ id: 'wd_0', name: 'Old', code: 'G2' })
    const file = path.join(configDir, 'widgets.ndjson')
    const rows = ['g1', 'g2', 'g3'].map((c) => JSON.stringify({ name: `W ${c}`, code: c }))
    writeFileSync(file, `${rows.join('\n')}\n`)
    const first = await run(['widgets', 'create', '--from-file', file, '--skip-existing'])
    expect(first.code, first.stderr).toBe(0)
    expect(
      first.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).status),
    ).toEqual(['created', 'skipped', 'created'])
    expect(stored.map((w) => w.code)).toEqual(['G2', 'g1', 'g3'])

    const again = await run(['widgets', 'create', '--from-file', file])
    expect(again.code).toBe(2)
    expect(again.stderr).toMatch(/^error: an earlier run of this input against .* finished/)
    expect(stored).toHaveLength(3)
  })

  it('refuses --resume without a file before the verb runs', async () => {
    const { code, stderr } = await run(['widgets', 'create', '--resume'])
    expect(code).toBe(2)
    expect(stderr).toBe('error: --resume is for bulk runs: --from-file with many rows\n')
    expect(requests).toEqual([])
  })

  it('is a write verb of the tree, so the common rules reach it: refused on /v1', async () => {
    const tree = writeVerbs(
      (await import('../../src/cli/program.js')).createProgram(createContext(createTestIO().io)),
    )
    const verb = tree.find((v) => v.name === 'widgets create')!
    expect(verb).toMatchObject({ resource: 'widgets', prompts: true, fromFile: true })
    const { code, stderr } = await run(inputArgs(verb, '-'), {
      env: { CHAMBERCTL_BASE_URL: `${root}/v1` },
      stdin: '{"name":"Gear","code":"g1"}',
    })
    expect(code).toBe(2)
    expect(stderr).toBe(
      `error: widgets create needs API v2, but ${root}/v1 is API v1; use a /v2 base URL\n`,
    )
    expect(requests).toEqual([])
  })
})
