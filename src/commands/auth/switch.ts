import type { Context } from '../../cmdutil/context.js'

export type Options = { profile: string }

// Makes a profile the active one for later commands, as `gh auth switch` does. Only `login`
// creates profiles, so an unknown name is refused naming those there are.
export async function switchProfile(opts: Options, ctx: Context): Promise<void> {
  const store = await ctx.profiles()
  await store.switchTo(opts.profile)
  if (ctx.globals.quiet) return
  ctx.io.err.write(`Switched to profile ${opts.profile}\n`)
  const override = ctx.io.env.CHAMBERCTL_PROFILE
  if (override && override !== opts.profile) {
    ctx.io.err.write(
      `note: CHAMBERCTL_PROFILE=${override} is set, and overrides it where it is set\n`,
    )
  }
}
