// `report duplicates`: the members that share an e-mail address (finder.ts), grouped by it, with
// where each copy lives; exit 1 when there are any, so that a CI job fails on them.
//
// --json (and -o yaml) prints one document, {groups: [{key, copies: [...]}], counts: {...}}; every other format
// prints the copies as rows (key, chamber_id, chamber_name, member_id, name, email), a group's
// rows together: a table on a terminal names each group's key once, a pipe gets every row whole.
import { checkFields } from '../../api/resources/index.js'
import type { Exactly } from '../../cmdutil/command.js'
import type { Context, Globals } from '../../cmdutil/context.js'
import { outputOptions, paged } from '../../cmdutil/print.js'
import { ExitCode, SilentError } from '../../errors.js'
import { writeBatches, writeDocument } from '../../io/output.js'
import type { OutputRecord } from '../../io/output.js'
import { startProgress } from '../../io/progress.js'
import { pickFields } from '../../io/values.js'
import { say } from '../../io/wrap.js'
import { count, plural } from '../../util.js'
import { findDuplicates } from './finder.js'
import type { Copy, Found, Source } from './finder.js'
import { duplicateRows } from './rows.js'
import { Walk, connect, selection } from './walk.js'
import type { ChamberRef, SelectFlags, Selection } from './walk.js'

export type Flags = SelectFlags
export type Options = { selection: Selection }

export function toOptions<F extends Flags>(
  flags: Exactly<F, Flags>,
  globals: Pick<Globals, 'fields'>,
): Options {
  checkFields(duplicateRows, globals.fields)
  return { selection: selection(flags) }
}

export async function duplicates(opts: Options, ctx: Context): Promise<void> {
  const { io, globals } = ctx
  const client = await connect(ctx, opts.selection)
  const walk = new Walk(client, opts.selection, ctx)
  const progress = startProgress(io, globals)
  walk.progress = progress
  let chambers: ChamberRef[]
  let found: Found
  try {
    progress?.update('reading chambers')
    chambers = await walk.chambers()
    found = await findDuplicates(source(walk, chambers), {
      progress: (members) =>
        progress?.update(`read ${count(members)} members of ${count(chambers.length)} chambers`),
    })
  } finally {
    progress?.stop()
  }
  if (globals.debug) {
    const each = found.members ? (found.indexBytes / found.members).toFixed(1) : '0'
    await say(
      io,
      `debug: the e-mail index of ${count(found.members)} members held ${count(found.indexBytes)} bytes (${each} a member); ${count(found.candidates)} candidates read again`,
    )
  }
  // A copy as a row: where it lives, and the address as stored.
  const copyRow = (copy: Copy) => {
    const chamber = chambers[copy.chamber]!
    return {
      chamber_id: chamber.id,
      chamber_name: chamber.name,
      member_id: copy.id,
      name: copy.name,
      email: copy.email,
    }
  }
  const rows = found.groups.flatMap((group) =>
    group.copies.map((copy) => ({ key: group.key, ...copyRow(copy) })),
  )
  const pick = (row: OutputRecord) => (globals.fields ? pickFields(row, globals.fields) : row)
  await paged(ctx, async ({ io, globals }) => {
    if (globals.format === 'json' || globals.format === 'yaml') {
      const groups = found.groups.map((group) => ({
        key: group.key,
        copies: group.copies.map((copy) => pick(copyRow(copy))),
      }))
      const counts = {
        chambers: chambers.length,
        members: found.members,
        groups: groups.length,
        copies: rows.length,
      }
      return writeDocument(io, { groups, counts }, { format: globals.format, jq: globals.jq })
    }
    // On a terminal, a group's key heads its first row only.
    const shown =
      globals.format === 'table'
        ? rows.map((row, i) => (i > 0 && rows[i - 1]!.key === row.key ? { ...row, key: '' } : row))
        : rows
    await writeBatches(
      io,
      (async function* () {
        if (shown.length > 0) yield shown
      })(),
      outputOptions(globals, duplicateRows),
    )
  })
  if (!globals.quiet) await say(io, summary(found, chambers.length, rows.length))
  const incomplete = walk.incomplete()
  if (incomplete) throw incomplete
  if (found.groups.length > 0) throw new SilentError(ExitCode.failure, 'duplicates')
}

function summary(found: Found, chambers: number, copies: number): string {
  const among = `${count(found.members)} ${plural(found.members, 'member')} of ${count(chambers)} ${plural(chambers, 'chamber')}`
  const groups = found.groups.length
  if (groups === 0) return `No e-mail address is shared among ${among}.`
  return `${count(groups)} e-mail ${groups === 1 ? 'address is' : 'addresses are'} shared by ${count(copies)} members, among ${among}.`
}

function source(walk: Walk, chambers: readonly ChamberRef[]): Source {
  return {
    pages: () => walk.members(chambers),
    page: ({ chamber, page, perPage }) => walk.again(chambers[chamber]!, { page, perPage }),
    chamber: async function* (chamber) {
      for await (const page of walk.members([chambers[chamber]!])) yield page.records
    },
  }
}
