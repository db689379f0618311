// `widgets create`: what is the verb's own, as src/commands/<noun>/create.ts holds it: which flags
// give which fields, the prompts' wording, the summary and the line once created.
import { describeId } from '../../src/api/answers.js'
import type { Exactly } from '../../src/cmdutil/command.js'
import type { Context } from '../../src/cmdutil/context.js'
import { checkBulkFlags } from '../../src/cmdutil/create/flags.js'
import type { BulkFlags } from '../../src/cmdutil/create/flags.js'
import { runCreate } from '../../src/cmdutil/create/verb.js'
import type { CreateVerb } from '../../src/cmdutil/create/types.js'
import { promptText } from '../../src/io/prompt.js'
import { escapeForTerminal } from '../../src/io/terminal-text.js'
import { widgets } from './widgets.js'
import type { WidgetCreate } from './widgets.js'

// The flags index.ts declares, and their rules: the bulk flags need a file.
export type Flags = BulkFlags & { name?: string; code?: string; fromFile?: string; dryRun?: true }
export type Options = Flags

export function toOptions<F extends Flags>(flags: Exactly<F, Flags>): Options {
  return checkBulkFlags(flags)
}

export async function create(opts: Options, ctx: Context): Promise<void> {
  await runCreate(CREATE, opts, ctx)
}

const CREATE: CreateVerb<WidgetCreate, Options> = {
  command: 'widgets create',
  resource: widgets,
  body: (opts, record) => ({
    ...record,
    ...(opts.name !== undefined && { name: opts.name }),
    ...(opts.code !== undefined && { code: opts.code }),
  }),
  missing: (body) => [body.name === undefined && '--name', body.code === undefined && '--code'],
  ask: async (body, { ctx }) => {
    if (body.name === undefined) body.name = await promptText(ctx.io, { message: 'Name' })
    if (body.code === undefined) body.code = await promptText(ctx.io, { message: 'Code' })
  },
  summary: async (body) => ({
    lines: [
      'About to create:',
      `  name: ${escapeForTerminal(body.name)}`,
      `  code: ${escapeForTerminal(body.code)}`,
    ],
    question: 'Create this widget?',
  }),
  created: (widget, valid) => `Created widget ${describeId(widget.id)} (${valid.code})`,
}
