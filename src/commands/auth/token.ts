import { ApiError } from '../../api/errors.js'
import { LOGIN_HINT } from '../../cmdutil/connect.js'
import type { Context } from '../../cmdutil/context.js'

export async function token(ctx: Context): Promise<void> {
  const client = await ctx.api()
  if (!client.tokens) throw new ApiError('not_configured', LOGIN_HINT)
  ctx.io.out.write(`${await client.tokens.token()}\n`)
}
