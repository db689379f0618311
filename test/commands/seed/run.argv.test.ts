// seed: argv → options, the flag rules included (the verb is mocked, its toOptions is not; its
// behaviour is in run.test.ts).
import { describe, vi } from 'vitest'
import { seed } from '../../../src/commands/seed/run.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/seed/run.js', async (real) => ({
  ...(await real<object>()),
  seed: vi.fn(),
}))

describe('seed: argv → options', () => {
  argvCases(vi.mocked(seed), {
    parses: [
      [['seed', 'fixture.yaml'], { file: 'fixture.yaml', concurrency: 8 }],
      [
        [
          'seed',
          '-',
          '--skip-existing',
          '--report',
          'report.json',
          '--concurrency',
          '4',
          '--verbose',
        ],
        { file: '-', skipExisting: true, report: 'report.json', concurrency: 4, verbose: true },
      ],
      [
        ['seed', 'fixture.yaml', '--dry-run', '--offline'],
        { file: 'fixture.yaml', dryRun: true, offline: true, concurrency: 8 },
      ],
      [
        ['seed', 'fixture.yaml', '--resume'],
        { file: 'fixture.yaml', resume: true, concurrency: 8 },
      ],
    ],
    refuses: [
      [['seed'], "missing required argument 'file'"],
      [['seed', 'fixture.yaml', '--concurrency', '100'], '--concurrency'],
      [
        ['seed', 'fixture.yaml', '--offline'],
        'error: --offline goes with --dry-run: seed cannot create anything offline',
      ],
      [
        ['seed', 'fixture.yaml', '--dry-run', '--offline', '--skip-existing'],
        'error: --offline cannot tell what exists: drop --skip-existing or --offline',
      ],
    ],
  })
})
