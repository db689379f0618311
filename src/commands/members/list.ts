import { checkId } from '../../api/paths.js'
import { checkFields, members } from '../../api/resources/index.js'
import type { Context } from '../../cmdutil/context.js'
import { parseSort } from '../../cmdutil/filters.js'
import { pageOptions } from '../../cmdutil/paging.js'
import type { PagingFlags } from '../../cmdutil/paging.js'
import { printList } from '../../cmdutil/print.js'
import { requireV2, usedFlag } from '../../cmdutil/api-version.js'

export type Options = PagingFlags & { chamberId: string; status?: string; sort?: string }

export async function list(opts: Options, ctx: Context): Promise<void> {
  checkId(opts.chamberId, 'chamber id')
  checkFields(members, ctx.globals.fields)
  const paging = pageOptions(opts)
  const sort = parseSort('members', opts.sort)
  const client = await ctx.api()
  requireV2(ctx, client, usedFlag(opts, { status: '--status', sort: '--sort' }))
  const filters = { status: opts.status, sort }
  await printList(
    ctx,
    (p) => client.members.list(opts.chamberId, { ...filters, ...p }),
    paging,
    members,
  )
}
