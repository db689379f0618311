import type { Context } from '../../cmdutil/context.js'
import { DEFAULT_PROFILE } from '../../config/profiles.js'
import type { ProfileStore } from '../../config/profiles.js'
import { UsageError } from '../../errors.js'
import { say } from '../../io/wrap.js'

export type Options = { profile?: string }

// Makes a profile the active one for later commands, as `gh auth switch` does. Only `login`
// creates profiles, so an unknown name is refused naming those there are. Without a name, a
// terminal is offered the profiles; elsewhere it is exit 2 naming them.
export async function switchProfile(opts: Options, ctx: Context): Promise<void> {
  const store = await ctx.profiles()
  const profile = opts.profile ?? (await chooseProfile(store, ctx))
  await store.switchTo(profile)
  if (ctx.globals.quiet) return
  await say(ctx.io, `Switched to profile ${profile}`)
  const override = ctx.io.env.CHAMBERCTL_PROFILE
  if (override && override !== profile) {
    await say(
      ctx.io,
      `note: CHAMBERCTL_PROFILE=${override} is set, and overrides it where it is set`,
    )
  }
}

async function chooseProfile(store: ProfileStore, ctx: Context): Promise<string> {
  const names = Object.keys(store.list()).sort()
  if (names.length === 0) {
    throw new UsageError('there are no profiles yet; `chamberctl login` creates one')
  }
  if (!ctx.globals.canPrompt) {
    throw new UsageError(
      `missing profile: the profiles are ${names.join(', ')} (cannot prompt here)`,
    )
  }
  // The one later commands use now: the one switched to before, else `default`.
  const active = store.active() ?? DEFAULT_PROFILE
  const { promptSelect } = await import('../../io/prompt.js')
  return promptSelect(ctx.io, {
    message: 'Profile to switch to',
    choices: names.map((name) => ({
      value: name,
      name: name === active ? `${name} (active)` : name,
    })),
    default: active,
  })
}
