// `report members`: every member of every chamber (or of those selected), each beside its
// chamber's id, name and city, written a page at a time through the lists' output path, so that
// memory does not grow with the directory and every format of a list is a format of the report.
import type { Exactly } from '../../cmdutil/command.js'
import { checkFields } from '../../api/resources/index.js'
import type { Context, Globals } from '../../cmdutil/context.js'
import { outputOptions, paged } from '../../cmdutil/print.js'
import { writeBatches } from '../../io/output.js'
import type { OutputRecord } from '../../io/output.js'
import { clearingProgress, startProgress } from '../../io/progress.js'
import { say } from '../../io/wrap.js'
import { count } from '../../util.js'
import { memberRow, memberRows } from './rows.js'
import { Walk, connect, selection } from './walk.js'
import type { SelectFlags, Selection } from './walk.js'

export type Flags = SelectFlags & { limit?: number }
export type Options = { selection: Selection; limit?: number }

export function toOptions<F extends Flags>(
  flags: Exactly<F, Flags>,
  globals: Pick<Globals, 'fields'>,
): Options {
  checkFields(memberRows, globals.fields)
  return { selection: selection(flags), limit: flags.limit }
}

export async function members(opts: Options, ctx: Context): Promise<void> {
  const client = await connect(ctx, opts.selection)
  await paged(ctx, async ({ io, globals }, viaPager) => {
    const walk = new Walk(client, opts.selection, { io, globals })
    // No progress note inside a pager: the pager draws the screen.
    const progress = viaPager ? undefined : startProgress(io, globals)
    walk.progress = progress
    try {
      progress?.update('reading chambers')
      const chambers = await walk.chambers()
      let fetched = 0
      async function* rows(): AsyncGenerator<OutputRecord[]> {
        for await (const page of walk.members(chambers, opts.limit)) {
          fetched += page.records.length
          progress?.update(
            `fetched ${count(fetched)} members, chamber ${page.chamber + 1} of ${chambers.length}`,
          )
          const chamber = chambers[page.chamber]!
          yield page.records.map((member) => memberRow(chamber, member))
        }
      }
      const written = await writeBatches(
        io,
        clearingProgress(rows(), progress),
        outputOptions(globals, memberRows),
      )
      if (written === 0 && globals.format === 'table' && !globals.quiet) {
        await say(io, 'no members')
      }
    } finally {
      progress?.stop()
    }
    const incomplete = walk.incomplete()
    if (incomplete) throw incomplete
  })
}
