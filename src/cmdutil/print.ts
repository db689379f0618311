// Prints what a read command fetched, in the format the global options chose.
import type { FetchPage, PageOptions } from '../api/paginate.js'
import type { PageMeta } from '../api/answers.js'
import { pages } from '../api/paginate.js'
import { columnsOf, fieldNames } from '../api/resources/index.js'
import type { Descriptor } from '../api/resources/index.js'
import type { Context } from './context.js'
import type { OutputOptions, OutputRecord } from '../io/output.js'
import type { IO } from '../io/streams.js'
import { writeBatches, writeRecord } from '../io/output.js'
import { painter } from '../io/color.js'
import { clearingProgress, startProgress } from '../io/progress.js'
import { fitText, say } from '../io/wrap.js'
import { count as formatCount } from '../util.js'

// On a terminal, what a read prints goes through the pager (contract §1), and so do the notes
// under it when stderr is the same terminal, as git has them; an error is said after the pager
// has ended. Only the read commands call this: never prompts, never bulk runs. The pager draws
// the screen: no spinner while it runs.
export async function paged(
  ctx: Pick<Context, 'io' | 'globals' | 'waiting'>,
  print: (ctx: Pick<Context, 'io' | 'globals'>, viaPager: boolean) => Promise<void>,
): Promise<void> {
  const { io, globals } = ctx
  const pager = globals.pager && io.startPager ? await io.startPager(globals.pager) : undefined
  if (!pager) return print(ctx, false)
  const err = io.stderrIsTTY ? pager.input : io.err
  const pagedIO: IO = Object.assign(Object.create(io) as IO, { out: pager.input, err })
  const release = ctx.waiting.hold()
  try {
    await print({ io: pagedIO, globals }, true)
  } finally {
    release()
    pager.input.end()
    await pager.closed
  }
}

export async function printList<T extends OutputRecord>(
  ctx: Pick<Context, 'io' | 'globals' | 'waiting'>,
  fetchPage: FetchPage<T>,
  paging: PageOptions,
  resource: Descriptor,
): Promise<void> {
  await paged(ctx, (paged, viaPager) => list(paged, fetchPage, paging, resource, viaPager))
}

async function list<T extends OutputRecord>(
  ctx: Pick<Context, 'io' | 'globals'>,
  fetchPage: FetchPage<T>,
  paging: PageOptions,
  resource: Descriptor,
  viaPager: boolean,
): Promise<void> {
  const { io, globals } = ctx
  const noun = resource.name
  const walking = paging.all === true || paging.limit !== undefined
  // No progress line inside a pager: the pager draws the screen.
  const progress = walking && !viaPager ? startProgress(io, globals) : undefined
  let fetched = 0
  let lastMeta: PageMeta | undefined
  const counted: FetchPage<T> = async (request) => {
    const page = await fetchPage(request)
    lastMeta = page.meta
    fetched += page.data.length
    // A server whose meta has no total gets a count without an end.
    const wanted = Math.min(page.meta.total ?? Infinity, paging.limit ?? Infinity)
    progress?.update(
      wanted === Infinity
        ? `fetched ${fetched} ${noun}`
        : `fetched ${Math.min(fetched, wanted)} of ${wanted} ${noun}`,
    )
    return page
  }
  try {
    // A page at a time: --all over 100,000 records is 1,000 writes, not 100,000.
    const count = await writeBatches(
      io,
      clearingProgress(pages(counted, paging), progress),
      // -o yaml: --all is a stream of documents, one a record (kubectl's), as long as the list.
      { ...outputOptions(globals, resource), documents: paging.all === true },
    )
    if (count === 0 && globals.format === 'table' && !globals.quiet) await say(io, `no ${noun}`)
    // A person at a terminal must not take one page for the whole list.
    if (!walking && count > 0 && globals.format === 'table' && io.stderrIsTTY && !globals.quiet) {
      const note = moreNote(lastMeta, count, noun)
      const text = note && (await fitText(note, io.stderrWidth))
      if (text) io.err.write(`${painter(globals.errorColor)('dim', text)}\n`)
    }
  } finally {
    progress?.stop()
  }
}

// `Showing 20 of 260 members. Use --all or --limit N.` when the page printed is not the last.
// Said only when the server's meta is sane enough to know (answers.ts keeps no other).
function moreNote(meta: PageMeta | undefined, count: number, noun: string): string | undefined {
  const page = meta?.current_page
  if (meta?.total === undefined || page === undefined) return undefined
  if (page > 1 && meta.per_page === undefined) return undefined
  const through = (page - 1) * (meta.per_page ?? 0) + count
  if (through >= meta.total) return undefined
  return `Showing ${count} of ${formatCount(meta.total)} ${noun}. Use --all or --limit N.`
}

export async function printRecord(
  ctx: Pick<Context, 'io' | 'globals'>,
  record: OutputRecord,
  resource: Descriptor,
  // Lists of records in the record (--include), shown as tables under headings on a terminal.
  sections?: Readonly<Record<string, Descriptor>>,
  // Columns of tsv and csv after the resource's own (the sizes of included lists).
  extra: readonly string[] = [],
): Promise<void> {
  await writeRecord(ctx.io, record, {
    ...outputOptions(ctx.globals, resource),
    columns: columnsOf(resource, ctx.globals.fields ?? [...resource.columns, ...extra]),
    order: columnsOf(resource, fieldNames(resource)),
    sections:
      sections &&
      Object.fromEntries(Object.entries(sections).map(([key, list]) => [key, columnsOf(list)])),
  })
}

// What the global options say of output, for records of `resource`: its columns (those --fields
// picked), the format, colour, --wide, -q and --jq.
export function outputOptions(
  globals: Pick<Context['globals'], 'format' | 'fields' | 'color' | 'wide' | 'quiet' | 'jq'>,
  resource: Descriptor,
): OutputOptions {
  const { format, fields, color, wide, quiet, jq } = globals
  return { format, columns: columnsOf(resource, fields), fields, color, wide, quiet, jq }
}
