import type { Context } from '../../cli/context.js'

export async function logout(ctx: Context): Promise<void> {
  const store = await ctx.profiles()
  const name = ctx.globals.profile
  const forgot = await store.forgetSecrets(name)
  if (ctx.globals.quiet) return
  ctx.io.err.write(
    forgot
      ? `Logged out of profile ${name}: token and secret removed\n`
      : `Profile ${name} holds no token or secret\n`,
  )
}
