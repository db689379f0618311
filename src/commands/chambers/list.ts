import { chambers, checkFields } from '../../api/resources/index.js'
import type { PageOptions } from '../../api/paginate.js'
import type { Exactly } from '../../cmdutil/command.js'
import type { Context, Globals } from '../../cmdutil/context.js'
import { pageOptions } from '../../cmdutil/paging.js'
import type { PagingFlags } from '../../cmdutil/paging.js'
import { printList } from '../../cmdutil/print.js'
import { parseSort } from '../../cmdutil/filters.js'
import { requireV2, usedFlag } from '../../cmdutil/api-version.js'

export type Flags = PagingFlags & { type?: string; status?: string; sort?: string }
export type Options = {
  paging: PageOptions
  filters: { type?: string; status?: string; sort?: string }
}

export function toOptions<F extends Flags>(
  flags: Exactly<F, Flags>,
  globals: Pick<Globals, 'fields'>,
): Options {
  checkFields(chambers, globals.fields)
  return {
    paging: pageOptions(flags),
    filters: { type: flags.type, status: flags.status, sort: parseSort('chambers', flags.sort) },
  }
}

export async function list({ paging, filters }: Options, ctx: Context): Promise<void> {
  const client = await ctx.api()
  requireV2(ctx, client, usedFlag(filters, V2_FLAGS))
  await printList(ctx, (p) => client.chambers.list({ ...filters, ...p }), paging, chambers)
}

const V2_FLAGS = { type: '--type', status: '--status', sort: '--sort' }
