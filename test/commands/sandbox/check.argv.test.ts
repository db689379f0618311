// sandbox --check: argv → options (the health check is mocked; its behaviour is in
// test/e2e/sandbox-host.test.ts). It asks at --host and --port, and serves nothing.
import { describe, expect, vi } from 'vitest'
import { check } from '../../../src/commands/sandbox/check.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/sandbox/check.js', () => ({ check: vi.fn() }))

describe('sandbox --check: argv → options', () => {
  argvCases(vi.mocked(check), {
    parses: [
      [['sandbox', '--check'], expect.objectContaining({ host: '127.0.0.1', port: 4010 })],
      [
        ['sandbox', '--check', '--host', '::1', '--port', '5000'],
        expect.objectContaining({ host: '::1', port: 5000, check: true }),
      ],
    ],
    refuses: [[['sandbox', '--check', '--port', 'x'], '--port']],
  })
})
