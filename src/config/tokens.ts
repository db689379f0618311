// Tokens cached in a profile, one per base URL. Apart from profiles.ts so that commands reach
// them without loading the config store.
import type { Profile, ProfileToken } from './profiles.js'

// The key of a base URL's cached token: the URL as parsed (host lower-cased, default port
// dropped), without trailing slashes.
export function tokenKey(baseUrl: string): string {
  let href = baseUrl
  try {
    href = new URL(baseUrl).href
  } catch {
    // A hand-edited base URL that does not parse is refused before any request; as a key it
    // only needs to be stable.
  }
  return href.replace(/\/+$/, '')
}

export function tokenFor(profile: Profile | undefined, baseUrl: string): ProfileToken | undefined {
  const tokens = profile?.tokens
  const key = tokenKey(baseUrl)
  return tokens && Object.hasOwn(tokens, key) ? tokens[key] : undefined
}

// Keeps a newly obtained token for one base URL, leaving the other base URLs' tokens alone.
export function withToken(
  profile: Profile | undefined,
  baseUrl: string,
  token: ProfileToken,
): Profile {
  const { access_token, expires_at } = token
  const kept = expires_at === undefined ? { access_token } : { access_token, expires_at }
  return { ...profile, tokens: { ...profile?.tokens, [tokenKey(baseUrl)]: kept } }
}
