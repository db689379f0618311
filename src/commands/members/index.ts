import { Option } from '@commander-js/extra-typings'
import type { Command } from 'commander'
import { RECORD_STATUSES } from '../../api/constants.js'
import { typed } from '../../cmdutil/command.js'
import type { Context } from '../../cmdutil/context.js'
import { INPUT, OUTPUT, SERVER, about } from '../../cmdutil/manual.js'
import { integer } from '../../cmdutil/parse.js'
import { addPagingOptions } from '../../cmdutil/paging.js'

export function registerMembers(program: Command, ctx: Context): void {
  const members = about(
    typed(program).command('members').description('list and add the members of a chamber'),
    {
      examples: [
        ['The first page of a chamber’s members', 'chamberctl members ls ch_0001'],
        ['Add members from a CSV file', 'chamberctl members add ch_0001 --from-file members.csv'],
      ],
    },
  )

  const listCommand = addPagingOptions(
    members
      .command('list')
      .alias('ls')
      .description('list the members of a chamber')
      .argument('<chamber-id>', 'chamber id')
      .addOption(new Option('--status <status>', 'only this status (v2)').choices(RECORD_STATUSES))
      .option('--sort <field>', 'sort by FIELD, or -FIELD for descending (v2)'),
  ).action(async (chamberId, flags) => {
    const { list, toOptions } = await import('./list.js')
    await list(toOptions(chamberId, flags, ctx.globals), ctx)
  })
  about(listCommand, {
    completes: { '--fields': { fieldsOf: 'members' } },
    topics: ['formatting'],
    globals: [...SERVER, ...OUTPUT],
    examples: [
      ['The first page, as a table', 'chamberctl members list ch_0001'],
      [
        'Every pending member, newest first',
        'chamberctl members ls ch_0001 --status pending --sort -joined_at',
      ],
      ['All e-mail addresses, one a line', 'chamberctl members list ch_0001 --all --fields email'],
      [
        'How many members are active, with jq built in',
        `chamberctl members list ch_0001 --all \\\n  --jq 'map(select(.status == "active")) | length'`,
      ],
    ],
  })

  const addCommand = members
    .command('add')
    .description(
      'add a member (v2), or many from a file; prompts for what is missing on a terminal',
    )
    .argument('<chamber-id>', 'chamber id')
    .option('--name <name>', 'member name')
    .option('--email <email>', 'e-mail address')
    .option('--phone <phone>', 'phone number')
    .option('--membership-type <type>', 'membership type, e.g. standard')
    .option(
      '--from-file <file>',
      'JSON object, JSON array, NDJSON or CSV (- for stdin); many rows = bulk',
    )
    .option('--concurrency <n>', 'requests in flight at once in a bulk run', integer(1, 64), 8)
    .option('--dry-run', 'print what would be sent and send nothing')
    .option('--verbose', 'bulk on a terminal: print every row, not only the failures')
    .option('--skip-existing', 'bulk: skip rows whose e-mail the chamber already has')
    .option('--resume', 'bulk: continue a run that ended early, sending only rows not yet created')
    .action(async (chamberId: string, flags) => {
      const { add } = await import('./add.js')
      await add({ chamberId, ...flags }, ctx)
    })
  about(addCommand, {
    topics: ['bulk', 'formatting'],
    globals: [...SERVER, ...OUTPUT, ...INPUT],
    examples: [
      ['Prompted for what is missing (on a terminal)', 'chamberctl members add ch_0001'],
      [
        'One member from flags',
        'chamberctl members add ch_0001 --name "Ada Lovelace" \\\n  --email ada@example.com --membership-type standard -y',
      ],
      [
        'Many from a CSV file: a progress bar, then what failed',
        'chamberctl members add ch_0001 --from-file members.csv',
      ],
      [
        'Every row’s result, as NDJSON',
        'chamberctl members add ch_0001 --from-file members.csv -o ndjson',
      ],
    ],
  })
}
