// A profile's client secret kept in the OS keyring: read only when a token must be obtained, once.
import { ApiError } from '../../api/errors.js'
import type { Profile } from '../../config/profiles.js'

export function storedSecret(
  name: string,
  profile: Profile,
): string | (() => Promise<string>) | undefined {
  const account = profile.keyring_account
  if (account === undefined) return profile.client_secret
  let read: Promise<string> | undefined
  return () => (read ??= readKeyringSecret(name, account))
}

async function readKeyringSecret(name: string, account: string): Promise<string> {
  const { readFromKeyring, KeyringUnavailable } = await import('../../config/keyring.js')
  const relogin = 'run `chamberctl login` again'
  let secret: string | undefined
  try {
    secret = await readFromKeyring(account)
  } catch (error) {
    if (!(error instanceof KeyringUnavailable)) throw error
    throw new ApiError(
      'not_configured',
      `cannot read the client secret of profile ${name} from the OS keyring (${error.reason}); ${relogin}`,
    )
  }
  if (secret === undefined) {
    throw new ApiError(
      'not_configured',
      `the client secret of profile ${name} is no longer in the OS keyring; ${relogin}`,
    )
  }
  return secret
}
