// Prints what a read command fetched, in the format the global options chose.
import type { FetchPage, PageOptions } from '../api/paginate.js'
import { paginate } from '../api/paginate.js'
import type { Context } from '../cli/context.js'
import type { OutputRecord } from '../io/output.js'
import { writeList, writeRecord } from '../io/output.js'
import { clearingProgress, startProgress } from '../io/progress.js'

export async function printList<T extends OutputRecord>(
  ctx: Pick<Context, 'io' | 'globals'>,
  fetchPage: FetchPage<T>,
  paging: PageOptions,
  columns: readonly string[],
  noun: string,
): Promise<void> {
  const { io, globals } = ctx
  const walking = paging.all === true || paging.limit !== undefined
  const progress = walking ? startProgress(io, globals) : undefined
  let fetched = 0
  const counted: FetchPage<T> = async (request) => {
    const page = await fetchPage(request)
    fetched += page.data.length
    const wanted = Math.min(page.meta.total, paging.limit ?? Infinity)
    progress?.update(`fetched ${Math.min(fetched, wanted)} of ${wanted} ${noun}`)
    return page
  }
  try {
    const count = await writeList(io, clearingProgress(paginate(counted, paging), progress), {
      format: globals.format,
      columns,
      fields: globals.fields,
      color: globals.color,
      wide: globals.wide,
    })
    if (count === 0 && globals.format === 'table' && !globals.quiet) io.err.write(`no ${noun}\n`)
  } finally {
    progress?.stop()
  }
}

export async function printRecord(
  ctx: Pick<Context, 'io' | 'globals'>,
  record: OutputRecord,
  columns: readonly string[],
): Promise<void> {
  await writeRecord(ctx.io, record, {
    format: ctx.globals.format,
    columns,
    fields: ctx.globals.fields,
    color: ctx.globals.color,
    wide: ctx.globals.wide,
  })
}
