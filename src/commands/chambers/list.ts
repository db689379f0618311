import { RESOURCE_FIELDS, checkFields } from '../../api/fields.js'
import type { Context } from '../../cmdutil/context.js'
import { pageOptions } from '../../cmdutil/paging.js'
import type { PagingFlags } from '../../cmdutil/paging.js'
import { printList } from '../../cmdutil/print.js'
import { parseSort } from '../../cmdutil/filters.js'
import { requireV2, usedFlag } from '../../cmdutil/api-version.js'

export type Options = PagingFlags & { type?: string; status?: string; sort?: string }

export const CHAMBER_COLUMNS = [
  'id',
  'name',
  'type',
  'hq_id',
  'status',
  'address.city',
  'created_at',
]

export async function list(opts: Options, ctx: Context): Promise<void> {
  checkFields(ctx.globals.fields, RESOURCE_FIELDS.chambers, 'chambers')
  const paging = pageOptions(opts)
  const sort = parseSort('chambers', opts.sort)
  const client = await ctx.api()
  requireV2(client.version, client.baseUrl, usedFlag(opts, V2_FLAGS))
  const filters = { type: opts.type, status: opts.status, sort }
  await printList(
    ctx,
    (p) => client.chambers.list({ ...filters, ...p }),
    paging,
    CHAMBER_COLUMNS,
    'chambers',
  )
}

const V2_FLAGS = { type: '--type', status: '--status', sort: '--sort' }
