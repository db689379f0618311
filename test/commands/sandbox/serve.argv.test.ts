// sandbox: argv → options, defaults included (the verb is mocked; the server is tested in
// test/sandbox/).
import { describe, vi } from 'vitest'
import { serve } from '../../../src/commands/sandbox/serve.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/sandbox/serve.js', () => ({ serve: vi.fn() }))

const DEFAULTS = {
  host: '127.0.0.1',
  port: 4010,
  tokenTtl: 3600,
  clientId: 'sandbox-client',
  clientSecret: 'sandbox-secret',
  latency: 0,
  failRate: 0,
}

describe('sandbox: argv → options', () => {
  argvCases(vi.mocked(serve), {
    parses: [
      [['sandbox'], DEFAULTS],
      [
        ['sandbox', '--port', '0', '--data', 'db.sqlite', '--empty', '--fail-rate', '0.2'],
        { ...DEFAULTS, port: 0, data: 'db.sqlite', empty: true, failRate: 0.2 },
      ],
      [['sandbox', '--demo-members', '1000'], { ...DEFAULTS, demoMembers: 1000 }],
      [['sandbox', '--host', '0.0.0.0'], { ...DEFAULTS, host: '0.0.0.0' }],
      [['sandbox', '--host', '::'], { ...DEFAULTS, host: '::' }],
      [['sandbox', '--host', 'localhost'], { ...DEFAULTS, host: 'localhost' }],
      [['sandbox', '--strict'], { ...DEFAULTS, strict: true }],
      [['sandbox', '--port-file', 'port.txt'], { ...DEFAULTS, portFile: 'port.txt' }],
      [['sandbox', '--cors', '*'], { ...DEFAULTS, cors: '*' }],
      [
        ['sandbox', '--cors', 'HTTP://LocalHost:3000/'],
        { ...DEFAULTS, cors: 'http://localhost:3000' },
      ],
      [['sandbox', '--cors', 'https://app.example'], { ...DEFAULTS, cors: 'https://app.example' }],
    ],
    refuses: [
      [['sandbox', '--port', '65536'], '--port'],
      [['sandbox', '--fail-rate', '2'], '--fail-rate'],
      [['sandbox', '--latency', '-1'], '--latency'],
      [['sandbox', '--host', 'example.org'], '--host'],
      [['sandbox', '--host', '10.0.0'], '--host'],
      [['sandbox', '--cors', 'localhost:3000'], '--cors'],
      [['sandbox', '--cors', 'http://localhost:3000/app'], '--cors'],
      [['sandbox', '--cors', 'ftp://files.example'], '--cors'],
      [['sandbox', '--cors', 'http://user:pw@app.example'], '--cors'],
    ],
  })
})
