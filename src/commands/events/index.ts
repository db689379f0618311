import { Option } from 'commander'
import type { Command } from 'commander'
import { EVENT_STATUSES } from '../../api/constants.js'
import type { Context } from '../../cmdutil/context.js'
import { addPagingOptions } from '../../cmdutil/paging.js'

export function registerEvents(program: Command, ctx: Context): void {
  const events = program.command('events').description('list the events of a chamber (v2)')

  addPagingOptions(
    events
      .command('list')
      .alias('ls')
      .description('list the events of a chamber (v2)')
      .argument('<chamber-id>', 'chamber id')
      .addOption(new Option('--status <status>', 'only this status').choices(EVENT_STATUSES))
      .option('--from <date>', 'only events ending on or after this ISO 8601 date')
      .option('--to <date>', 'only events starting on or before this ISO 8601 date'),
  ).action(async (chamberId: string, flags) => {
    const { list } = await import('./list.js')
    await list({ chamberId, ...flags }, ctx)
  })
}
