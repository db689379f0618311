import type { Context } from '../../cmdutil/context.js'
import { CliError } from '../../errors.js'
import { say } from '../../io/wrap.js'

export async function logout(ctx: Context): Promise<void> {
  const store = await ctx.profiles()
  const name = store.select(ctx.globals.profile)
  const account = store.get(name)?.keyring_account
  let stranded: string | undefined
  if (account !== undefined) {
    const { removeFromKeyring, KeyringUnavailable } = await import('../../config/keyring.js')
    try {
      await removeFromKeyring(account)
    } catch (error) {
      if (!(error instanceof KeyringUnavailable)) throw error
      stranded = error.reason
    }
  }
  // A keyring entry that could not be removed stays referenced, so that a logout where the
  // keyring can be reached finishes the job.
  const forgot = await store.forgetSecrets(name, stranded === undefined ? [] : ['keyring_account'])
  if (stranded !== undefined) {
    throw new CliError(
      `logged out of profile ${name}, but its secret is still in the OS keyring, which cannot be ` +
        `reached here (${stranded}); run \`chamberctl logout\` again where it can`,
    )
  }
  if (ctx.globals.quiet) return
  await say(
    ctx.io,
    forgot
      ? `Logged out of profile ${name}: token and secret removed${account === undefined ? '' : ' (the secret from the OS keyring)'}`
      : `Profile ${name} holds no token or secret`,
  )
}
