// Pagination as an async iterator (octokit's paginate.iterator): records come out strictly in
// order while later pages are fetched concurrently, at most `concurrency` pages ahead. A server
// whose meta gives no usable total is walked one page after another, up to the first short or
// empty page. `pages` hands out each page's records as one array, which is what a printer of
// 100,000 records wants: a step of an async iterator per record costs more than the record.
import type { Page } from './answers.js'
import { MAX_PER_PAGE } from './constants.js'
import { ApiError } from './errors.js'
import { holdHeapFlat } from '../v8-flags.js'

export type PageRequest = { page: number; perPage?: number }
export type FetchPage<T> = (request: PageRequest) => Promise<Page<T>>

export type PageOptions = {
  page?: number
  perPage?: number
  // Walk every page from `page` on.
  all?: boolean
  // Stop after this many records, fetching no page that is not needed.
  limit?: number
  concurrency?: number
}

export const DEFAULT_PAGE_CONCURRENCY = 4

export async function* paginate<T>(fetchPage: FetchPage<T>, options: PageOptions = {}) {
  for await (const records of pages(fetchPage, options)) yield* records
}

// The records of each page, in order; the last cut at the limit. No array is empty.
export async function* pages<T>(
  fetchPage: FetchPage<T>,
  options: PageOptions = {},
): AsyncGenerator<T[]> {
  const first = options.page ?? 1
  const limit = options.limit ?? (options.all ? Infinity : undefined)
  if (limit === undefined) {
    const { data } = await fetchPage({ page: first, perPage: options.perPage })
    if (data.length > 0) yield data
    return
  }
  if (limit <= 0) return
  // With --page the page size must stay the server's default, or the page would be another one.
  const perPage =
    options.perPage ?? (options.page === undefined ? Math.min(MAX_PER_PAGE, limit) : undefined)
  const head = await fetchPage({ page: first, perPage })
  // The server's meta decides when it is sane: it may have clamped per_page, and total says
  // where the end is. Without per_page, the size asked for, or else the first page's, is the size.
  // A meta that numbers the page otherwise than asked is not about this page (a mock's random
  // one, a server that ignores `page`): the pages themselves then say where the list ends.
  const meta =
    head.meta.current_page === undefined || head.meta.current_page === first ? head.meta : {}
  const size = meta.per_page ?? perPage ?? head.data.length
  const release = holdHeapFlat()
  try {
    if (meta.total === undefined) yield* walk(fetchPage, head, first, size, limit)
    else yield* window(fetchPage, head, meta.total, first, size, limit, options.concurrency)
  } finally {
    release()
  }
}

// Every page to the last by the total, up to `concurrency` of them on their way at once.
async function* window<T>(
  fetchPage: FetchPage<T>,
  head: Page<T>,
  total: number,
  first: number,
  size: number,
  limit: number,
  concurrency = DEFAULT_PAGE_CONCURRENCY,
): AsyncGenerator<T[]> {
  const after = total - (first - 1) * size - head.data.length
  const lastByTotal = first + Math.ceil(Math.max(after, 0) / size)
  const lastByLimit = first + Math.ceil(Math.max(limit - head.data.length, 0) / size)
  const last = Math.min(lastByTotal, lastByLimit)
  const ahead: Promise<Page<T>>[] = []
  let next = first + 1
  const fill = () => {
    while (next <= last && ahead.length < concurrency) {
      const pending = fetchPage({ page: next++, perPage: size })
      // Awaited in order below; this only keeps an early exit from leaving it unhandled.
      pending.catch(() => {})
      ahead.push(pending)
    }
  }
  // Later pages are on their way before the first record is handed out.
  if (head.data.length > 0) fill()
  const quota = new Quota(limit)
  const records = quota.take(head.data)
  if (records.length > 0) yield records
  while (ahead.length > 0 && !quota.spent) {
    const page = await ahead.shift()!
    if (page.data.length === 0) return
    fill()
    yield quota.take(page.data)
  }
}

// Hands out no more than `limit` records in all, cutting the page that reaches it.
class Quota {
  constructor(private left: number) {}

  take<T>(records: T[]): T[] {
    const taken = records.length <= this.left ? records : records.slice(0, this.left)
    this.left -= taken.length
    return taken
  }

  get spent(): boolean {
    return this.left <= 0
  }
}

// One page after another until a page is short or empty, or the limit is reached. Without a
// total, a server that ignores `page` would be asked forever: that is a page repeating the first
// one's records from a server that does not echo the page number asked. Records may well repeat
// (id-less ones, say), so a server that numbers its pages is believed.
async function* walk<T>(
  fetchPage: FetchPage<T>,
  head: Page<T>,
  first: number,
  size: number,
  limit: number,
) {
  const quota = new Quota(limit)
  const firstRecords = JSON.stringify(head.data)
  let page = head
  let number = first
  for (;;) {
    const records = quota.take(page.data)
    if (records.length > 0) yield records
    if (page.data.length === 0 || page.data.length < size || quota.spent) return
    page = await fetchPage({ page: ++number, perPage: size })
    if (page.meta.current_page !== number && JSON.stringify(page.data) === firstRecords) {
      throw new ApiError(
        'unexpected_response',
        `page ${number} of the list is the same as page ${first}: the server seems to ignore the page parameter (its answer names no page ${number}), and its meta gives no total to stop at`,
      )
    }
  }
}
