// The built binary: export → seed → export gives the same bytes, in YAML and in JSON, from a
// sandbox with the demo data into an empty one; and seed --skip-existing of an export into the
// directory it came from creates nothing.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { parse as parseYaml } from 'yaml'
import { describe, expect, it } from 'vitest'
import { credentialsEnv, useSandbox, useTempDirs } from '../helpers/sandbox.js'
import type { SandboxFixture } from '../helpers/sandbox.js'
import { runCli } from '../helpers/run-cli.js'
import { demoDataset } from '../../src/sandbox/demo-data.js'

const demo = useSandbox()
const tempDir = useTempDirs('chamberctl-e2e-export-')

function cli(fixture: SandboxFixture, args: string[], stdin?: string) {
  return runCli(args, {
    configDir: tempDir(),
    env: credentialsEnv(fixture),
    stdin: stdin === undefined ? 'closed' : { text: stdin },
  })
}

async function exported(fixture: SandboxFixture, args: string[]): Promise<string> {
  const result = await cli(fixture, ['export', '--members', ...args])
  expect(result.code, result.stderr).toBe(0)
  return result.stdout
}

type Report = { summary: Record<string, number> }

describe.each([
  ['YAML', []],
  ['JSON', ['--json']],
])('export → seed → export (%s)', (_format, args) => {
  const copy = useSandbox({ empty: true })

  it('gives the same bytes, and seeding it again where it came from creates nothing', async () => {
    const first = await exported(demo(), args)
    const { chambers, members } = demoDataset(Date.now())
    const parsed = parseYaml(first) as { chambers: { members?: unknown[] }[] }
    expect(parsed.chambers).toHaveLength(chambers.length)
    expect(parsed.chambers.flatMap((c) => c.members ?? [])).toHaveLength(members.length)

    const file = path.join(tempDir(), args.length ? 'directory.json' : 'directory.yaml')
    writeFileSync(file, first)
    const seeded = await cli(copy(), ['seed', file, '--json'])
    expect(seeded.code, seeded.stderr).toBe(0)
    expect((JSON.parse(seeded.stdout) as Report).summary).toEqual({
      created: chambers.length + members.length,
      created_earlier: 0,
      skipped: 0,
      invalid: 0,
      failed: 0,
      unknown: 0,
      not_sent: 0,
    })

    expect(await exported(copy(), args)).toBe(first)

    // From stdin, as a pipe from export would hand it over.
    const again = await cli(demo(), ['seed', '-', '--skip-existing', '--json'], first)
    expect(again.code, again.stderr).toBe(0)
    expect((JSON.parse(again.stdout) as Report).summary).toEqual({
      created: 0,
      created_earlier: 0,
      skipped: chambers.length + members.length,
      invalid: 0,
      failed: 0,
      unknown: 0,
      not_sent: 0,
    })
  })
})
