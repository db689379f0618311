import type { Command } from 'commander'
import type { Context } from '../../cmdutil/context.js'
import { addChamberFilters } from '../chambers/index.js'

export function registerExport(program: Command, ctx: Context): void {
  addChamberFilters(
    program
      .command('export')
      .description(
        'write chambers (all, or those named) as a seed fixture: YAML, or JSON with --json',
      )
      .argument('[chamber-id...]', 'only these chambers (default: every one)'),
  )
    .option('--members', "with each chamber's members")
    .action(async (chamberIds: string[], flags) => {
      const { exportFixture } = await import('./run.js')
      await exportFixture({ chamberIds, ...flags }, ctx)
    })
}
