// `diff`: a fixture (or an export) against the live directory: what only the fixture has (what
// seed would create), what only the server has, which fields differ. Exit 0 when they match, 1
// when they differ. The comparison is cmdutil/fixture/compare.ts's, which seed --dry-run's plan shares.
import type { Client } from '../../api/client.js'
import type { Exactly } from '../../cmdutil/command.js'
import { paged } from '../../cmdutil/print.js'
import type { Context, Globals } from '../../cmdutil/context.js'
import { ExitCode, SilentError, UsageError } from '../../errors.js'
import { startProgress } from '../../io/progress.js'
import { say } from '../../io/wrap.js'
import type { Readable } from 'node:stream'
import { readFixture } from '../../cmdutil/fixture/read.js'
import { streamFixture } from '../../cmdutil/fixture/stream.js'
import type { FixtureChamber, Members } from '../../cmdutil/fixture/read.js'
import { compareDirectory } from '../../cmdutil/fixture/compare.js'
import { DiffReport, jsonWriter, pipeWriter, summaryLine, terminalWriter } from './report.js'

export type Flags = { members?: true }
export type Options = { file: string; members: boolean }

export function toOptions<F extends Flags>(
  file: string,
  flags: Exactly<F, Flags>,
  globals: Pick<Globals, 'fields' | 'formatChosen' | 'format'>,
): Options {
  if (globals.fields)
    throw new UsageError('diff compares every field the fixture states; --fields does not apply')
  if (globals.formatChosen && globals.format !== 'json' && globals.format !== 'yaml') {
    throw new UsageError(
      `diff prints text, or a document with --json or -o yaml; not -o ${globals.format}`,
    )
  }
  return { file, members: flags.members === true }
}

// The fixture's chambers, one at a time. A file is read twice, a chamber at a time, so that
// memory follows its largest chamber, not the file: once to check it whole (streamFixture may
// find a problem only at its end), then to compare. stdin cannot be read twice: it is read whole,
// within the 64 MiB of every input, as seed reads it.
async function fixtureChambers(
  file: string,
  stdin: Readable,
): Promise<AsyncIterable<FixtureChamber<Members>>> {
  if (file === '-') {
    const { chambers } = await readFixture(file, stdin)
    return (async function* () {
      yield* chambers
    })()
  }
  for await (const chamber of streamFixture(file, stdin)) void chamber
  return streamFixture(file, stdin)
}

export async function diff(opts: Options, ctx: Context): Promise<void> {
  const chambers = await fixtureChambers(opts.file, ctx.io.in)
  const client = await ctx.api()
  let equal = true
  // On a terminal through the pager, as every read's output.
  await paged(ctx, async (out) => {
    equal = await compare(opts, out, client, chambers)
  })
  if (!equal) throw new SilentError(ExitCode.failure, 'different')
}

async function compare(
  opts: Options,
  ctx: Pick<Context, 'io' | 'globals'>,
  client: Client,
  chambers: AsyncIterable<FixtureChamber<Members>>,
): Promise<boolean> {
  const { io, globals } = ctx
  const json = globals.format === 'json' || globals.format === 'yaml' || globals.jq !== undefined
  const writer = json
    ? jsonWriter(ctx, opts.file)
    : io.stdoutIsTTY
      ? terminalWriter(ctx)
      : pipeWriter(ctx)
  // Only when the output goes to a file: on a terminal it would cut into the diff.
  const progress = io.stdoutIsTTY ? undefined : startProgress(io, globals)
  const report = new DiffReport(writer, opts.members, progress && ((text) => progress.update(text)))
  try {
    await compareDirectory(client, chambers, { members: () => opts.members }, report)
  } finally {
    progress?.stop()
  }
  await report.end()
  // The lines are data; how many there are of each is said on stderr.
  if (!json && !globals.quiet) await say(io, summaryLine(report.summary))
  return report.equal
}
