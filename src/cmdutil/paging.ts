// Flags and output shared by every list verb: --page, --per-page, --all, --limit, and the
// streaming print of the records they select.
import type { Command, OptionValues } from '@commander-js/extra-typings'
import type { PageOptions } from '../api/paginate.js'
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../api/constants.js'
import { integer } from './parse.js'
import { UsageError } from '../errors.js'

export type PagingFlags = { page?: number; perPage?: number; all?: boolean; limit?: number }

export function addPagingOptions<
  A extends unknown[],
  O extends OptionValues,
  G extends OptionValues,
>(command: Command<A, O, G>) {
  return command
    .option('--page <n>', 'fetch this page (default: 1)', integer(1))
    .option(
      '--per-page <n>',
      `records per page, 1..${MAX_PER_PAGE} (default: ${DEFAULT_PER_PAGE})`,
      integer(1, MAX_PER_PAGE),
    )
    .option('--all', 'fetch every page')
    .option('--limit <n>', 'print at most this many records, across pages', integer(1))
}

export function pageOptions(flags: PagingFlags): PageOptions {
  if (flags.all && flags.page !== undefined) {
    throw new UsageError('--all walks every page; it cannot be combined with --page')
  }
  return { page: flags.page, perPage: flags.perPage, all: flags.all, limit: flags.limit }
}
