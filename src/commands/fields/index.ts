import { Argument } from 'commander'
import type { Command } from 'commander'
import { RESOURCES } from '../../api/fields.js'
import type { Resource } from '../../api/fields.js'
import type { Context } from '../../cmdutil/context.js'

export function registerFields(program: Command, ctx: Context): void {
  program
    .command('fields')
    .description('list the fields of a resource, for --fields (nested ones as address.city)')
    .addArgument(new Argument('<resource>', RESOURCES.join(', ')).choices(RESOURCES))
    .action(async (resource: Resource) => {
      const { fields } = await import('./list.js')
      fields({ resource }, ctx)
    })
}
