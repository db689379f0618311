import { isUsable } from '../../api/auth.js'
import type { TokenManagerOptions } from '../../api/auth.js'
import type { ProfileStore } from '../../config/profiles.js'
import type { TokenOwner } from '../../config/tokens.js'

// A token for a profile's login, obtained once for every process that needs one at the same
// moment: under the profile's refresh lock, a token another process stored meanwhile (usable, for
// this login, and not the one being replaced) is taken; else one is fetched and stored, unless
// the login has changed since (logout, a new login), when it serves this command only. A token
// that cannot be stored costs only a token request later.
export function sharedRefresh(
  store: ProfileStore,
  name: string,
  baseUrl: string,
  owner: TokenOwner,
): TokenManagerOptions['share'] {
  return (replacing, fetch) =>
    store.refreshing(name, async () => {
      const stored = store.tokens(name).get(baseUrl, owner)
      if (stored && stored.access_token !== replacing) {
        const theirs = { token: stored.access_token, expiresAt: stored.expires_at }
        if (isUsable(theirs, Date.now())) return theirs
      }
      const fresh = await fetch()
      const token = { access_token: fresh.token, expires_at: fresh.expiresAt }
      await store.saveToken(name, baseUrl, token, owner).catch(() => false)
      return fresh
    })
}
