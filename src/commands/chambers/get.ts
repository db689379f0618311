import { checkId } from '../../api/paths.js'
import { includeSchema } from '../../api/params.js'
import { chambers, checkFields, events, members } from '../../api/resources/index.js'
import type { Context } from '../../cmdutil/context.js'
import { UsageError } from '../../errors.js'
import { paged, printRecord, spinning } from '../../cmdutil/print.js'
import type { OutputRecord } from '../../io/output.js'
import { requireV2 } from '../../cmdutil/api-version.js'

export type Options = { id: string; include?: string }

export async function get(opts: Options, ctx: Context): Promise<void> {
  checkId(opts.id, 'chamber id')
  checkFields(chambers, ctx.globals.fields)
  const include = parseInclude(opts.include)
  const client = await ctx.api()
  requireV2(ctx, client, include ? '--include' : undefined)
  const chamber = await spinning(ctx, client.chambers.get(opts.id, { include }))
  await paged(ctx, (paged) => show(paged, chamber, include))
}

async function show(
  ctx: Pick<Context, 'io' | 'globals'>,
  chamber: OutputRecord,
  include: string[] | undefined,
): Promise<void> {
  const { format } = ctx.globals
  if (format === 'table') {
    // Every field, and the included lists as tables under headings.
    await printRecord(ctx, chamber, chambers, { members, events })
    return
  }
  if (!include || format === 'json' || format === 'ndjson') {
    await printRecord(ctx, chamber, chambers)
    return
  }
  // TSV and CSV rows have one value per column: included lists are shown by their size.
  const counts = Object.fromEntries(
    include.map((name) => [name, Array.isArray(chamber[name]) ? chamber[name].length : 0]),
  )
  await printRecord(ctx, { ...chamber, ...counts }, chambers, undefined, include)
}

function parseInclude(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined
  const parsed = includeSchema.safeParse(value)
  if (!parsed.success)
    throw new UsageError(`--include ${value}: ${parsed.error.issues[0]!.message}`)
  return parsed.data
}
