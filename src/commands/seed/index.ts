import type { Command } from 'commander'
import { RESOURCES } from '../../api/resources/index.js'
import type { Context } from '../../cmdutil/context.js'
import { INPUT, OUTPUT, SERVER, about } from '../../cmdutil/manual.js'
import { typed } from '../../cmdutil/command.js'
import { addBulkFlags } from '../../cmdutil/create/flags.js'

export function registerSeed(program: Command, ctx: Context): void {
  const seedCommand = seedVerb(program).action(async (file, flags) => {
    const { seed, toOptions } = await import('./run.js')
    await seed(toOptions(file, flags), ctx)
  })
  about(seedCommand, {
    writes: { resource: RESOURCES.chambers, prompts: false },
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

// `seed`'s command line: its options, typed, are the verb's Flags (run.ts).
function seedVerb(program: Command) {
  return addBulkFlags(
    typed(program)
      .command('seed')
      .description('create the chambers and members of a fixture file (JSON or YAML) (v2)')
      .argument('<file>', 'fixture file, or - for stdin')
      .option('--dry-run', 'print the plan and send nothing')
      .option('--offline', 'with --dry-run: only check the file, without a server')
      .option('--report <file>', 'also write the JSON report to this file'),
    {
      noun: 'record',
      existing: 'chambers and members that already exist (re-runs)',
      bulkOnly: false,
    },
  )
}
