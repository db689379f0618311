import { checkId } from '../../api/paths.js'
import { checkFields, events } from '../../api/resources/index.js'
import type { Context } from '../../cmdutil/context.js'
import { checkDateRange, parseDate } from '../../cmdutil/filters.js'
import { pageOptions } from '../../cmdutil/paging.js'
import type { PagingFlags } from '../../cmdutil/paging.js'
import { printList } from '../../cmdutil/print.js'
import { requireV2 } from '../../cmdutil/api-version.js'

export type Options = PagingFlags & {
  chamberId: string
  status?: string
  from?: string
  to?: string
}

export async function list(opts: Options, ctx: Context): Promise<void> {
  checkId(opts.chamberId, 'chamber id')
  checkFields(events, ctx.globals.fields)
  const paging = pageOptions(opts)
  const filters = {
    status: opts.status,
    from: parseDate('--from', opts.from),
    to: parseDate('--to', opts.to),
  }
  checkDateRange(opts.from, opts.to)
  const client = await ctx.api()
  requireV2(ctx, client, 'events list')
  await printList(
    ctx,
    (p) => client.events.list(opts.chamberId, { ...filters, ...p }),
    paging,
    events,
  )
}
