import type { Command } from 'commander'
import type { Context } from '../../cmdutil/context.js'
import { INPUT, OUTPUT, SERVER, about } from '../../cmdutil/manual.js'
import { integer } from '../../cmdutil/parse.js'

export function registerSeed(program: Command, ctx: Context): void {
  const seedCommand = program
    .command('seed')
    .description('create the chambers and members of a fixture file (JSON or YAML) (v2)')
    .argument('<file>', 'fixture file, or - for stdin')
    .option('--concurrency <n>', 'requests in flight at once', integer(1, 64), 8)
    .option('--skip-existing', 'skip chambers and members that already exist (re-runs)')
    .option('--dry-run', 'print the plan and send nothing')
    .option('--offline', 'with --dry-run: only check the file, without a server')
    .option('--report <file>', 'also write the JSON report to this file')
    .option('--verbose', 'on a terminal, print every result, not only the failures')
    .option('--resume', 'continue a run that ended early, sending only records not yet created')
    .action(async (file: string, flags) => {
      const { seed } = await import('./run.js')
      await seed({ file, ...flags }, ctx)
    })
  about(seedCommand, {
    topics: ['fixtures', 'bulk'],
    globals: [...SERVER, ...OUTPUT, ...INPUT],
    examples: [
      ['Create what a fixture describes', 'chamberctl seed fixture.yaml'],
      [
        'Run it again, skipping what exists, keeping a report',
        'chamberctl seed fixture.yaml --skip-existing --report report.json',
      ],
      [
        'The plan: what would be created and what exists, send nothing',
        'chamberctl seed fixture.yaml --dry-run --skip-existing',
      ],
      ['Only check the file, without a server', 'chamberctl seed fixture.yaml --dry-run --offline'],
    ],
  })
}
