import { Option } from '@commander-js/extra-typings'
import type { Command } from 'commander'
import type { Command as Typed } from '@commander-js/extra-typings'
import { RECORD_STATUSES } from '../../api/constants.js'
import { typed } from '../../cmdutil/command.js'
import { RESOURCES } from '../../api/resources/index.js'
import type { Context } from '../../cmdutil/context.js'
import { INPUT, OUTPUT, SERVER, about } from '../../cmdutil/manual.js'
import { addBulkFlags } from '../../cmdutil/create/flags.js'
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

  const addCommand = addVerb(members).action(async (chamberId, flags) => {
    const { add, toOptions } = await import('./add.js')
    await add(toOptions(chamberId, flags), ctx)
  })
  about(addCommand, {
    writes: { resource: RESOURCES.members, prompts: true },
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

// `members add`'s command line: its options, typed, are the verb's Flags (add.ts).
function addVerb(members: Typed) {
  return addBulkFlags(
    members
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
      .option('--dry-run', 'print what would be sent and send nothing'),
    { noun: 'row', existing: 'rows whose e-mail the chamber already has', bulkOnly: true },
  )
}
