// Two `--sandbox` runs at once share one data file: each must see the other's records.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startCli } from '../helpers/run-cli.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function rows(prefix: string, count: number): string {
  return Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      name: `${prefix} ${i}`,
      email: `${prefix}${i}@lock.test`,
      membership_type: 'x',
    }),
  ).join('\n')
}

describe('--sandbox from several processes', () => {
  it('loses no record when two runs write at once', async () => {
    const configDir = mkdtempSync(path.join(tmpdir(), 'chamberctl-lock-'))
    dirs.push(configDir)
    const files = ['a', 'b'].map((prefix) => {
      const file = path.join(configDir, `${prefix}.ndjson`)
      writeFileSync(file, rows(prefix, 30))
      return file
    })
    const runs = files.map((file) =>
      startCli(['--sandbox', 'members', 'add', 'ch_0002', '--from-file', file, '-q'], {
        configDir,
        timeoutMs: 60_000,
      }),
    )
    const results = await Promise.all(runs.map((run) => run.exited))
    expect(results.map((r) => r.code)).toEqual([0, 0])

    const list = await startCli(
      ['--sandbox', 'members', 'list', 'ch_0002', '--all', '--fields', 'email'],
      { configDir },
    ).exited
    const emails = list.stdout.trim().split('\n')
    for (const prefix of ['a', 'b']) {
      expect(
        emails.filter((email) => email.startsWith(prefix) && email.endsWith('@lock.test')),
      ).toHaveLength(30)
    }
  })
})
