import { INCLUDES } from '../../api/constants.js'
import type { Context } from '../../cli/context.js'
import { UsageError } from '../../cli/errors.js'
import { printRecord } from '../print.js'
import { requireV2 } from '../version.js'
import { CHAMBER_COLUMNS } from './list.js'

export type Options = { id: string; include?: string }

export async function get(opts: Options, ctx: Context): Promise<void> {
  const include = parseInclude(opts.include)
  const client = await ctx.api()
  requireV2(client.version, client.baseUrl, include ? '--include' : undefined)
  const chamber = await client.chambers.get(opts.id, { include })
  const { format } = ctx.globals
  if (!include || format === 'json' || format === 'ndjson') {
    await printRecord(ctx, chamber, CHAMBER_COLUMNS)
    return
  }
  // Rows have one value per column: included lists are shown by their size.
  const counts = Object.fromEntries(
    include.map((name) => [name, Array.isArray(chamber[name]) ? chamber[name].length : 0]),
  )
  await printRecord(ctx, { ...chamber, ...counts }, [...CHAMBER_COLUMNS, ...include])
}

function parseInclude(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined
  const names = [
    ...new Set(
      value
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ]
  const unknown = names.filter((name) => !(INCLUDES as readonly string[]).includes(name))
  if (names.length === 0 || unknown.length) {
    throw new UsageError(
      `--include ${value}: expected a comma-separated list of ${INCLUDES.join(', ')}`,
    )
  }
  return names
}
