import { ApiError } from '../../api/errors.js'
import { LOGIN_HINT } from '../../cmdutil/connect.js'
import type { Context } from '../../cmdutil/context.js'
import { escapeForTerminal } from '../../io/terminal-text.js'

export async function token(ctx: Context): Promise<void> {
  const client = await ctx.api()
  if (!client.tokens) throw new ApiError('not_configured', LOGIN_HINT)
  const token = await client.tokens.token()
  // The token is the server's text: as it is for a pipe, escaped on a terminal.
  ctx.io.out.write(`${ctx.io.stdoutIsTTY ? escapeForTerminal(token) : token}\n`)
}
