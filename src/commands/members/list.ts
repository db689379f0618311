import { checkId } from '../../api/paths.js'
import type { PageOptions } from '../../api/paginate.js'
import { checkFields, members } from '../../api/resources/index.js'
import type { Exactly } from '../../cmdutil/command.js'
import type { Context, Globals } from '../../cmdutil/context.js'
import { parseSort } from '../../cmdutil/filters.js'
import { pageOptions } from '../../cmdutil/paging.js'
import type { PagingFlags } from '../../cmdutil/paging.js'
import { printList } from '../../cmdutil/print.js'
import { requireV2, usedFlag } from '../../cmdutil/api-version.js'

export type Flags = PagingFlags & { status?: string; sort?: string }
export type Options = {
  chamberId: string
  paging: PageOptions
  filters: { status?: string; sort?: string }
}

export function toOptions<F extends Flags>(
  chamberId: string,
  flags: Exactly<F, Flags>,
  globals: Pick<Globals, 'fields'>,
): Options {
  checkId(chamberId, 'chamber id')
  checkFields(members, globals.fields)
  return {
    chamberId,
    paging: pageOptions(flags),
    filters: { status: flags.status, sort: parseSort('members', flags.sort) },
  }
}

export async function list({ chamberId, paging, filters }: Options, ctx: Context): Promise<void> {
  const client = await ctx.api()
  requireV2(ctx, client, usedFlag(filters, { status: '--status', sort: '--sort' }))
  await printList(ctx, (p) => client.members.list(chamberId, { ...filters, ...p }), paging, members)
}
