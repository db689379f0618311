// One record: flags ∪ file → prompt for what is missing → confirm → send → print. Values that all
// came from flags or a file were meant: only answers typed here are confirmed (contract §3).
import type { Client } from '../../api/client.js'
import { confirmOrCancel } from '../../io/prompt.js'
import { say } from '../../io/wrap.js'
import type { Context } from '../context.js'
import { asking, checkGiven, validated } from '../validate.js'
import { printCreated, printDryRun } from '../write-output.js'
import type { Body, CreateOptions, CreateVerb } from './types.js'

export async function createOne<B extends Body, O extends CreateOptions, A>(
  client: Client,
  ctx: Context,
  verb: CreateVerb<B, O, A>,
  opts: O,
  body: Body,
): Promise<void> {
  const { globals } = ctx
  const { create } = verb.resource
  const schema = await create.schema()
  const prompting = checkGiven(
    schema,
    body,
    create.noun,
    verb.missing(body),
    asking(globals.canPrompt, opts.fromFile),
  )
  const how = { client, ctx, parent: opts.parent, optional: !globals.yes }
  const asked = prompting ? { answers: await verb.ask(body, how) } : undefined

  const valid = validated(schema, body, create.noun)
  if (opts.dryRun) {
    return printDryRun(ctx, 'POST', client.baseUrl + create.path(opts.parent), valid)
  }
  if (asked && !globals.yes) {
    const { lines, question } = await verb.summary(valid, asked.answers, how)
    await say(ctx.io, lines.join('\n'))
    await confirmOrCancel(ctx.io, question)
  }
  const record = await create.send(client, opts.parent, valid)
  await printCreated(ctx, record, verb.resource, verb.created(record, valid, opts.parent))
}
