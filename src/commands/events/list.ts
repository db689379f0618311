import { checkId } from '../../api/paths.js'
import type { PageOptions } from '../../api/paginate.js'
import { checkFields, events } from '../../api/resources/index.js'
import type { Exactly } from '../../cmdutil/command.js'
import type { Context, Globals } from '../../cmdutil/context.js'
import { checkDateRange, parseDate } from '../../cmdutil/filters.js'
import { pageOptions } from '../../cmdutil/paging.js'
import type { PagingFlags } from '../../cmdutil/paging.js'
import { printList } from '../../cmdutil/print.js'
import { requireV2 } from '../../cmdutil/api-version.js'

export type Flags = PagingFlags & { status?: string; from?: string; to?: string }
export type Options = {
  chamberId: string
  paging: PageOptions
  // --from and --to as sent: a date as typed, a date-time in RFC 3339 form.
  filters: { status?: string; from?: string; to?: string }
}

export function toOptions<F extends Flags>(
  chamberId: string,
  flags: Exactly<F, Flags>,
  globals: Pick<Globals, 'fields'>,
): Options {
  checkId(chamberId, 'chamber id')
  checkFields(events, globals.fields)
  const paging = pageOptions(flags)
  const filters = {
    status: flags.status,
    from: parseDate('--from', flags.from),
    to: parseDate('--to', flags.to),
  }
  checkDateRange(flags.from, flags.to)
  return { chamberId, paging, filters }
}

export async function list({ chamberId, paging, filters }: Options, ctx: Context): Promise<void> {
  const client = await ctx.api()
  requireV2(ctx, client, 'events list')
  await printList(ctx, (p) => client.events.list(chamberId, { ...filters, ...p }), paging, events)
}
