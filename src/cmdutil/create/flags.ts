// The write verbs' command lines (declared on the typed command, src/cmdutil/command.ts): the one
// group of bulk flags, and the rules of flag combinations, checked in one step before the verb
// runs so that the argv tests reach them.
import type { Command as TypedCommand, OptionValues } from '@commander-js/extra-typings'
import { UsageError } from '../../errors.js'
import { integer } from '../parse.js'

export type BulkFlags = {
  concurrency: number
  verbose?: true
  skipExisting?: true
  resume?: true
}

// How a verb speaks of the bulk flags: of `row`s or `record`s, what --skip-existing skips, and
// whether they apply to bulk runs only (a verb that also creates one record).
export type BulkWords = { noun: string; existing: string; bulkOnly: boolean }

// The bulk flags, declared once for every verb with a bulk run.
export function addBulkFlags<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: TypedCommand<A, O, G>,
  { noun, existing, bulkOnly }: BulkWords,
) {
  const bulk = bulkOnly ? 'bulk: ' : ''
  return command
    .option(
      '--concurrency <n>',
      `requests in flight at once${bulkOnly ? ' in a bulk run' : ''}`,
      integer(1, 64),
      8,
    )
    .option('--verbose', `${bulk}on a terminal, print every ${noun}, not only the failures`)
    .option('--skip-existing', `${bulk}skip ${existing}`)
    .option(
      '--resume',
      `${bulk}continue a run that ended early, sending only ${noun}s not yet created`,
    )
}

// --resume and --skip-existing belong to a bulk run: refused with one record.
export function bulkOnly(opts: Partial<BulkFlags>): UsageError {
  return new UsageError(
    `${opts.resume ? '--resume' : '--skip-existing'} is for bulk runs: --from-file with many rows`,
  )
}

// Before the verb: a verb that creates one record or many refuses the bulk flags without a file.
export function checkBulkFlags<O extends Partial<BulkFlags> & { fromFile?: string }>(opts: O): O {
  if (opts.fromFile === undefined && (opts.resume || opts.skipExisting)) throw bulkOnly(opts)
  return opts
}
