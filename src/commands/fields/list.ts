import { RESOURCE_FIELDS } from '../../api/fields.js'
import type { Resource } from '../../api/fields.js'
import type { Context } from '../../cmdutil/context.js'

export type Options = { resource: Resource }

// One name a line: what --fields accepts, for a person or for `| grep`.
export function fields(opts: Options, ctx: Pick<Context, 'io'>): void {
  ctx.io.out.write(`${RESOURCE_FIELDS[opts.resource].join('\n')}\n`)
}
