// The registration of `widgets create`, as src/commands/<noun>/index.ts holds it: its flags
// (typed, and handed to the verb's toOptions, which checks their rules), the bulk flag group, and
// its tag as a write verb.
import type { Command } from 'commander'
import type { Context } from '../../src/cmdutil/context.js'
import type { Command as Typed } from '@commander-js/extra-typings'
import { typed } from '../../src/cmdutil/command.js'
import { addBulkFlags } from '../../src/cmdutil/create/flags.js'
import { INPUT, OUTPUT, SERVER, about } from '../../src/cmdutil/manual.js'
import { widgets } from './widgets.js'

export function registerWidgets(program: Command, ctx: Context): void {
  const noun = typed(program)
    .command('widgets')
    .description('create widgets (a test-only resource)')
  const create = createVerb(noun).action(async (flags) => {
    const { create, toOptions } = await import('./create.js')
    await create(toOptions(flags), ctx)
  })
  about(create, {
    writes: { resource: widgets, prompts: true },
    globals: [...SERVER, ...OUTPUT, ...INPUT],
    examples: [['One widget', 'chamberctl widgets create --name Gear --code g1']],
  })
}

function createVerb(noun: Typed) {
  return addBulkFlags(
    noun
      .command('create')
      .description('create a widget, or many from a file')
      .option('--name <name>', 'widget name')
      .option('--code <code>', 'widget code, unique')
      .option('--from-file <file>', 'JSON object, JSON array, NDJSON or CSV (- for stdin)')
      .option('--dry-run', 'print what would be sent and send nothing'),
    { noun: 'row', existing: 'rows whose code exists', bulkOnly: true },
  )
}
