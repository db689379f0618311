import { Option } from '@commander-js/extra-typings'
import type { Command } from 'commander'
import { EVENT_STATUSES } from '../../api/constants.js'
import { typed } from '../../cmdutil/command.js'
import type { Context } from '../../cmdutil/context.js'
import { OUTPUT, SERVER, about } from '../../cmdutil/manual.js'
import { addPagingOptions } from '../../cmdutil/paging.js'

export function registerEvents(program: Command, ctx: Context): void {
  const events = about(
    typed(program).command('events').description('list the events of a chamber (v2)'),
    {
      examples: [
        ['The upcoming events of a chamber', 'chamberctl events ls ch_0001 --status upcoming'],
        [
          'Events of March 2026',
          'chamberctl events list ch_0001 --from 2026-03-01 --to 2026-03-31',
        ],
      ],
    },
  )

  const listCommand = addPagingOptions(
    events
      .command('list')
      .alias('ls')
      .description('list the events of a chamber (v2)')
      .argument('<chamber-id>', 'chamber id')
      .addOption(new Option('--status <status>', 'only this status').choices(EVENT_STATUSES))
      .option(
        '--from <date>',
        'only events ending on or after this date, or date-time with Z or an offset',
      )
      .option(
        '--to <date>',
        'only events starting on or before this date (all of it), or date-time with Z or an offset',
      ),
  ).action(async (chamberId, flags) => {
    const { list, toOptions } = await import('./list.js')
    await list(toOptions(chamberId, flags, ctx.globals), ctx)
  })
  about(listCommand, {
    completes: { '--fields': { fieldsOf: 'events' } },
    topics: ['formatting'],
    globals: [...SERVER, ...OUTPUT],
    examples: [
      ['The upcoming events', 'chamberctl events list ch_0001 --status upcoming'],
      ['Events of one month', 'chamberctl events ls ch_0001 --from 2026-03-01 --to 2026-03-31'],
      ['Every event as JSON', 'chamberctl events list ch_0001 --all --json'],
    ],
  })
}
