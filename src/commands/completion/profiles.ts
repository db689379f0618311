// `chamberctl __complete profiles`: the names of the profiles in the config directory, one per
// line, for the completion scripts. Read from the file alone (no keyring, no server); a name no
// command would accept (a hand-edited file) is left out, so nothing but [A-Za-z0-9_.-] reaches
// the shell, and a config that cannot be read gives nothing at all.
import type { Context } from '../../cmdutil/context.js'
import { isProfileName } from '../../config/profiles.js'

export async function profileNames(ctx: Context): Promise<void> {
  ctx.io.out.write((await profileChoices(ctx)).map((name) => `${name}\n`).join(''))
}

export async function profileChoices(ctx: Pick<Context, 'profiles'>): Promise<string[]> {
  try {
    return Object.keys((await ctx.profiles()).list())
      .filter(isProfileName)
      .sort()
  } catch {
    return []
  }
}
