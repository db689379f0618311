import { Option } from '@commander-js/extra-typings'
import type { Command } from 'commander'
import type { Command as Typed, OptionValues } from '@commander-js/extra-typings'
import { CHAMBER_TYPES, RECORD_STATUSES } from '../../api/constants.js'
import { typed } from '../../cmdutil/command.js'
import { RESOURCES } from '../../api/resources/index.js'
import type { Context } from '../../cmdutil/context.js'
import { INPUT, OUTPUT, SERVER, about } from '../../cmdutil/manual.js'
import { keyValue } from '../../cmdutil/parse.js'
import { addPagingOptions } from '../../cmdutil/paging.js'

// --type and --status, as `chambers list` and `export` select chambers.
export function addChamberFilters<
  A extends unknown[],
  O extends OptionValues,
  G extends OptionValues,
>(command: Typed<A, O, G>) {
  return command
    .addOption(new Option('--type <type>', 'only this type (v2)').choices(CHAMBER_TYPES))
    .addOption(new Option('--status <status>', 'only this status (v2)').choices(RECORD_STATUSES))
}

export function registerChambers(program: Command, ctx: Context): void {
  const chambers = about(
    typed(program).command('chambers').description('list, show and create chambers'),
    {
      examples: [
        ['Every headquarters', 'chamberctl chambers ls --type hq'],
        [
          'One chamber with its members and events',
          'chamberctl chambers show ch_0001 --include members,events',
        ],
        ['Create a chamber, prompted for what is missing', 'chamberctl chambers create'],
      ],
    },
  )

  const listCommand = addPagingOptions(
    addChamberFilters(chambers.command('list').alias('ls').description('list chambers')).option(
      '--sort <field>',
      'sort by FIELD, or -FIELD for descending (v2)',
    ),
  ).action(async (flags) => {
    const { list, toOptions } = await import('./list.js')
    await list(toOptions(flags, ctx.globals), ctx)
  })
  about(listCommand, {
    completes: { '--fields': { fieldsOf: 'chambers' } },
    topics: ['formatting'],
    globals: [...SERVER, ...OUTPUT],
    examples: [
      ['The headquarters, by name, Z to A', 'chamberctl chambers list --type hq --sort -name'],
      ['Every chamber as CSV', 'chamberctl chambers list --all -o csv > chambers.csv'],
      ['Ids and cities only', 'chamberctl chambers ls --fields id,address.city'],
    ],
  })

  const getCommand = chambers
    .command('get')
    .aliases(['show', 'view'])
    .description('show every field of one chamber')
    .argument('<id>', 'chamber id')
    .option(
      '--include <list>',
      'embed related records: members, events (v2; the first page of each, with its total)',
    )
    .action(async (id, flags) => {
      const { get, toOptions } = await import('./get.js')
      await get(toOptions(id, flags, ctx.globals), ctx)
    })
  about(getCommand, {
    completes: { '--fields': { fieldsOf: 'chambers' } },
    topics: ['formatting'],
    globals: [...SERVER, ...OUTPUT],
    examples: [
      ['Every field of one chamber', 'chamberctl chambers get ch_0001'],
      [
        'With its members and events, as tables',
        'chamberctl chambers view ch_0001 --include members,events',
      ],
      ['As JSON for a script', 'chamberctl chambers get ch_0001 --json'],
      ['As YAML, the way fixtures are written', 'chamberctl chambers get ch_0001 -o yaml'],
    ],
  })

  const createCommand = createVerb(chambers).action(async (flags) => {
    const { create, toOptions } = await import('./create.js')
    await create(toOptions(flags), ctx)
  })
  about(createCommand, {
    writes: { resource: RESOURCES.chambers, prompts: true },
    completes: { '--fields': { fieldsOf: 'chambers' } },
    topics: ['bulk'],
    globals: [...SERVER, ...OUTPUT, ...INPUT],
    examples: [
      ['Prompted for every value (on a terminal)', 'chamberctl chambers create'],
      [
        'A subsidiary from flags, without prompts',
        'chamberctl chambers create --name "Potsdam Chamber" --type subsidiary \\\n  --hq-id ch_0001 --address-field city=Potsdam -y',
      ],
      [
        'From a JSON file, checking it first',
        'chamberctl chambers create --from-file chamber.json --dry-run',
      ],
    ],
  })
}

// `chambers create`'s command line: its options, typed, are the verb's Flags (create.ts).
function createVerb(chambers: Typed) {
  return chambers
    .command('create')
    .description('create a chamber (v2); prompts for what is missing on a terminal')
    .option('--name <name>', 'chamber name')
    .addOption(new Option('--type <type>', 'chamber type').choices(CHAMBER_TYPES))
    .option('--hq-id <id>', 'headquarters chamber id (for a subsidiary)')
    .option('--address <json>', 'address as a JSON object')
    .option('--address-field <key=value>', 'one address field; repeatable', keyValue)
    .option('--from-file <file>', 'a JSON object with the fields (- for stdin); flags override it')
    .option('--dry-run', 'print the request body and send nothing')
}
