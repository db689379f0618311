import { Argument } from '@commander-js/extra-typings'
import type { Command } from 'commander'
import { RESOURCE_NAMES } from '../../api/resources/index.js'
import { typed } from '../../cmdutil/command.js'
import type { Context } from '../../cmdutil/context.js'
import { about } from '../../cmdutil/manual.js'

export function registerFields(program: Command, ctx: Context): void {
  const fieldsCommand = typed(program)
    .command('fields')
    .description('list the fields of a resource, for --fields (nested ones as address.city)')
    .addArgument(new Argument('<resource>', RESOURCE_NAMES.join(', ')).choices(RESOURCE_NAMES))
    .action(async (resource) => {
      const { fields } = await import('./list.js')
      fields({ resource }, ctx)
    })
  about(fieldsCommand, {
    examples: [
      ['The fields of a member, for --fields', 'chamberctl fields members'],
      ['Pick some of them', 'chamberctl members list ch_0001 --fields id,email,status'],
    ],
  })
}
