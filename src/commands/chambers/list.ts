import { chambers, checkFields } from '../../api/resources/index.js'
import type { Context } from '../../cmdutil/context.js'
import { pageOptions } from '../../cmdutil/paging.js'
import type { PagingFlags } from '../../cmdutil/paging.js'
import { printList } from '../../cmdutil/print.js'
import { parseSort } from '../../cmdutil/filters.js'
import { requireV2, usedFlag } from '../../cmdutil/api-version.js'

export type Options = PagingFlags & { type?: string; status?: string; sort?: string }

export async function list(opts: Options, ctx: Context): Promise<void> {
  checkFields(chambers, ctx.globals.fields)
  const paging = pageOptions(opts)
  const sort = parseSort('chambers', opts.sort)
  const client = await ctx.api()
  requireV2(ctx, client, usedFlag(opts, V2_FLAGS))
  const filters = { type: opts.type, status: opts.status, sort }
  await printList(ctx, (p) => client.chambers.list({ ...filters, ...p }), paging, chambers)
}

const V2_FLAGS = { type: '--type', status: '--status', sort: '--sort' }
