import { Option } from 'commander'
import type { Command } from 'commander'
import { RECORD_STATUSES } from '../../api/constants.js'
import type { Context } from '../../cli/context.js'
import { addPagingOptions } from '../paging.js'

export function registerMembers(program: Command, ctx: Context): void {
  const members = program.command('members').description('list the members of a chamber')

  addPagingOptions(
    members
      .command('list')
      .description('list the members of a chamber')
      .argument('<chamber-id>', 'chamber id')
      .addOption(new Option('--status <status>', 'only this status (v2)').choices(RECORD_STATUSES))
      .option('--sort <field>', 'sort by FIELD, or -FIELD for descending (v2)'),
  ).action(async (chamberId: string, flags) => {
    const { list } = await import('./list.js')
    await list({ chamberId, ...flags }, ctx)
  })
}
