import type { Command } from 'commander'
import { typed } from '../../cmdutil/command.js'
import type { Context } from '../../cmdutil/context.js'
import { SERVER, about } from '../../cmdutil/manual.js'
import { addChamberFilters } from '../chambers/index.js'

export function registerExport(program: Command, ctx: Context): void {
  const exportCommand = addChamberFilters(
    typed(program)
      .command('export')
      .description(
        'write chambers (all, or those named) as a seed fixture: YAML, or JSON with --json',
      )
      .argument('[chamber-id...]', 'only these chambers (default: every one)'),
  )
    .option('--members', "with each chamber's members")
    .action(async (chamberIds, flags) => {
      const { exportFixture, toOptions } = await import('./run.js')
      await exportFixture(toOptions(chamberIds, flags, ctx.globals), ctx)
    })
  about(exportCommand, {
    topics: ['fixtures'],
    // YAML, or JSON with --json: a fixture has no columns to pick and is not filtered.
    globals: [...SERVER, '--output', '--json'],
    examples: [
      [
        'Every chamber with its members, as a seed fixture',
        'chamberctl export --members > directory.yaml',
      ],
      [
        'Copy the directory into another one',
        'chamberctl export --members --json | chamberctl seed - --profile staging',
      ],
      ['Two chambers, without members', 'chamberctl export ch_0001 ch_0005'],
      ['The active headquarters', 'chamberctl export --type hq --status active'],
    ],
  })
}
