// Ctrl-C in a bulk run of the built binary: the first lets the requests in flight finish, a
// second ends the process at once. The sandbox sits behind a gate that holds the creates, so the
// requests stay in flight exactly as long as the test wants.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { credentialsEnv, useSandbox, useTempDirs } from '../helpers/sandbox.js'
import { startGate } from '../helpers/gate.js'
import { startCli } from '../helpers/run-cli.js'

const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-e2e-interrupt-')

describe('Ctrl-C in a bulk run', () => {
  it('waits for the requests in flight after one, and stops at once after a second', async () => {
    const gate = await startGate(sandbox().sandbox)
    try {
      const dir = tempDir()
      const file = path.join(dir, 'members.ndjson')
      const rows = Array.from({ length: 10 }, (_, i) =>
        JSON.stringify({ name: `Row ${i}`, email: `row${i}@interrupt.test`, membership_type: 's' }),
      )
      writeFileSync(file, rows.join('\n'))
      const run = startCli(
        ['members', 'add', 'ch_0003', '--from-file', file, '--concurrency', '2'],
        { configDir: dir, env: credentialsEnv(sandbox(), gate.baseUrl('v2')) },
      )
      await gate.whenHeld(2)
      run.child.kill('SIGINT')
      await run.waitFor('stderr', /Interrupted: finishing the requests in flight/)
      // Still running: the two held requests have not been answered.
      expect(run.child.exitCode).toBeNull()
      run.child.kill('SIGINT')
      const result = await run.exited
      expect(result.code).toBe(130)
      expect(result.stderr).toMatch(/Interrupted again: stopping now/)
      expect(gate.held()).toHaveLength(2)
    } finally {
      gate.open()
      await gate.close()
    }
  })
})
