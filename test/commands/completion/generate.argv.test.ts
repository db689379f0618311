// completion: argv → options (the verb is mocked; the scripts are tested in test/completion/).
import { describe, vi } from 'vitest'
import { completion } from '../../../src/commands/completion/generate.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/completion/generate.js', () => ({ completion: vi.fn() }))

describe('completion: argv → options', () => {
  argvCases(vi.mocked(completion), {
    parses: [
      [['completion', 'bash'], { shell: 'bash' }],
      [['completion', 'powershell'], { shell: 'powershell' }],
    ],
    refuses: [
      [['completion'], "missing required argument 'shell'"],
      [['completion', 'tcsh'], 'tcsh'],
      [['completion', 'bash', 'zsh'], 'too many arguments'],
    ],
  })
})
