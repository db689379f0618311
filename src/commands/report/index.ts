import { Option } from '@commander-js/extra-typings'
import type { Command } from 'commander'
import type { Command as Typed } from '@commander-js/extra-typings'
import { RECORD_STATUSES } from '../../api/constants.js'
import { typed } from '../../cmdutil/command.js'
import type { Context } from '../../cmdutil/context.js'
import { OUTPUT, SERVER, about } from '../../cmdutil/manual.js'
import { integer } from '../../cmdutil/parse.js'
import { addChamberFilters } from '../chambers/index.js'
import { duplicateRows, memberRows } from './rows.js'
import membersManual from './members.md?raw'
import duplicatesManual from './duplicates.md?raw'

export function registerReport(program: Command, ctx: Context): void {
  const report = about(
    typed(program)
      .command('report')
      .description('reports across every chamber: all members, shared e-mail addresses'),
    {
      examples: [
        [
          'Every member with their chamber, for a spreadsheet',
          'chamberctl report members -o csv > members.csv',
        ],
        ['Fail a CI job when an e-mail is registered twice', 'chamberctl report duplicates'],
      ],
    },
  )

  const membersCommand = select(
    report
      .command('members')
      .description("every member of every chamber, beside the chamber's id, name and city"),
  )
    .option('--limit <n>', 'print at most this many members, across chambers', integer(1))
    .action(async (flags) => {
      const { members, toOptions } = await import('./members.js')
      await members(toOptions(flags, ctx.globals), ctx)
    })
  about(membersCommand, {
    completes: { '--fields': { fieldsOf: memberRows } },
    long: membersManual,
    topics: ['formatting'],
    globals: [...SERVER, ...OUTPUT],
    examples: [
      ['Every member as CSV, for a spreadsheet', 'chamberctl report members -o csv > members.csv'],
      [
        'The active members of the active headquarters',
        'chamberctl report members --type hq --status active \\\n  --member-status active',
      ],
      [
        'Name, e-mail and city, one JSON object a line',
        'chamberctl report members -o ndjson \\\n  --fields name,email,chamber_city',
      ],
      [
        'How many members each city has, with jq built in',
        'chamberctl report members -o ndjson --jq .chamber_city | sort | uniq -c',
      ],
    ],
  })

  const duplicatesCommand = select(
    report
      .command('duplicates')
      .description('members sharing an e-mail address, within a chamber or across chambers'),
  ).action(async (flags) => {
    const { duplicates, toOptions } = await import('./duplicates.js')
    await duplicates(toOptions(flags, ctx.globals), ctx)
  })
  about(duplicatesCommand, {
    completes: { '--fields': { fieldsOf: duplicateRows } },
    long: duplicatesManual,
    topics: ['exit-codes'],
    globals: [...SERVER, ...OUTPUT],
    examples: [
      ['Shared e-mail addresses, grouped; exit 1 when any', 'chamberctl report duplicates'],
      [
        'Only among active members, as a JSON document',
        'chamberctl report duplicates --member-status active --json',
      ],
      [
        'The addresses alone, one a line',
        "chamberctl report duplicates --json --jq '.groups[].key'",
      ],
    ],
  })
}

// The selection both reports take: chambers by --type and --status, members by --member-status.
function select(command: Typed) {
  return addChamberFilters(command).addOption(
    new Option('--member-status <status>', 'only members of this status (v2)').choices(
      RECORD_STATUSES,
    ),
  )
}
