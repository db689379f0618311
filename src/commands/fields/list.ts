import { RESOURCES, fieldNames } from '../../api/resources/index.js'
import type { Resource } from '../../api/resources/index.js'
import type { Context } from '../../cmdutil/context.js'

export type Options = { resource: Resource }

// One name a line: what --fields accepts, for a person or for `| grep`.
export function fields(opts: Options, ctx: Pick<Context, 'io'>): void {
  ctx.io.out.write(`${fieldNames(RESOURCES[opts.resource]).join('\n')}\n`)
}
