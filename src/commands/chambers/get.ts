import { checkId } from '../../api/paths.js'
import { includeSchema } from '../../api/params.js'
import { chambers, checkFields, events, members } from '../../api/resources/index.js'
import type { Exactly } from '../../cmdutil/command.js'
import type { Context, Globals } from '../../cmdutil/context.js'
import { UsageError } from '../../errors.js'
import { paged, printRecord } from '../../cmdutil/print.js'
import type { OutputRecord } from '../../io/output.js'
import { requireV2 } from '../../cmdutil/api-version.js'
import { say } from '../../io/wrap.js'

export type Flags = { include?: string }
// include: the names of the related lists to embed.
export type Options = { id: string; include?: string[] }

export function toOptions<F extends Flags>(
  id: string,
  flags: Exactly<F, Flags>,
  globals: Pick<Globals, 'fields'>,
): Options {
  checkId(id, 'chamber id')
  checkFields(chambers, globals.fields)
  return { id, include: parseInclude(flags.include) }
}

export async function get({ id, include }: Options, ctx: Context): Promise<void> {
  const client = await ctx.api()
  requireV2(ctx, client, include ? '--include' : undefined)
  const chamber = await client.chambers.get(id, { include })
  await paged(ctx, (paged) => show(paged, chamber, include))
  // The server embeds one page of each list: where it was cut, say how to get the rest.
  if (ctx.globals.quiet) return
  for (const name of include ?? []) {
    const shown = Array.isArray(chamber[name]) ? chamber[name].length : 0
    const total = sizeOf(chamber, name)
    if (total <= shown) continue
    await say(
      ctx.io,
      `${name}: the first ${shown} of ${total} shown; all of them: chamberctl ${name} list ${id} --all`,
    )
  }
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
  // The formats that write a record whole, its included lists as arrays.
  if (!include || format === 'json' || format === 'ndjson' || format === 'yaml') {
    await printRecord(ctx, chamber, chambers)
    return
  }
  // TSV and CSV rows have one value per column: included lists are shown by their size.
  const counts = Object.fromEntries(include.map((name) => [name, sizeOf(chamber, name)]))
  await printRecord(ctx, { ...chamber, ...counts }, chambers, undefined, include)
}

function parseInclude(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined
  const parsed = includeSchema.safeParse(value)
  if (!parsed.success)
    throw new UsageError(`--include ${value}: ${parsed.error.issues[0]!.message}`)
  return parsed.data
}

// An included list's size: the total the server gives with the page it embeds, else its length.
function sizeOf(chamber: OutputRecord, name: string): number {
  const total = chamber[`${name}_total`]
  if (typeof total === 'number') return total
  return Array.isArray(chamber[name]) ? chamber[name].length : 0
}
