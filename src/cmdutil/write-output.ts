// What the write commands print: the created record on stdout, a confirmation on stderr, and for
// --dry-run the request that would have been sent.
import type { Descriptor } from '../api/resources/index.js'
import type { Context } from './context.js'
import type { OutputRecord } from '../io/output.js'
import { writeJson } from '../io/output.js'
import { escapeForTerminal } from '../io/terminal-text.js'
import { printRecord } from './print.js'
import { say } from '../io/wrap.js'

export async function printCreated(
  ctx: Pick<Context, 'io' | 'globals'>,
  record: OutputRecord,
  resource: Descriptor,
  confirmation: string,
): Promise<void> {
  await printRecord(ctx, record, resource)
  // It names the server's id and the file's or the flags' values.
  if (!ctx.globals.quiet) await say(ctx.io, escapeForTerminal(confirmation))
}

// The body goes to stdout as JSON, whatever the output format: it is the request, not a record.
export async function printDryRun(
  ctx: Pick<Context, 'io' | 'globals'>,
  method: string,
  url: string,
  body: unknown,
): Promise<void> {
  if (!ctx.globals.quiet) {
    await say(ctx.io, `Dry run: would send ${method} ${escapeForTerminal(url)}`)
  }
  await writeJson(ctx.io, body, { jq: ctx.globals.jq })
}
