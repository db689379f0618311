// Where a command connects and with whose credentials: flags > environment > profile for each
// value, a profile's credentials kept to the origin it logged in to.
import type { CachedToken, TokenManagerOptions } from '../../api/auth.js'
import { checkBaseUrl } from '../../api/base-url.js'
import { ApiError } from '../../api/errors.js'
import { tokenOwner } from '../../config/profiles.js'
import type { Profile } from '../../config/profiles.js'
import type { Context } from '../context.js'
import { storedSecret } from './stored-secret.js'
import { sharedRefresh } from './shared-token.js'

export const LOGIN_HINT =
  'not logged in: run `chamberctl login`, or set CHAMBERCTL_TOKEN, or CHAMBERCTL_CLIENT_ID and CHAMBERCTL_CLIENT_SECRET'

export type Connection = {
  baseUrl: string
  clientId?: string
  // A profile's secret in the OS keyring is read only when a token must be obtained.
  clientSecret?: string | (() => Promise<string>)
  cached?: CachedToken
  // How a token is obtained through the profile's cache, when it belongs to a profile.
  share?: TokenManagerOptions['share']
  // What to tell a user who has no credentials for this base URL, when LOGIN_HINT is not it.
  hint?: string
}

// Whose credentials a command uses: the sandbox's, the environment's alone (a base URL and a
// token or a client id and secret, from flags or env), or a profile's, some values perhaps
// overridden from the environment (`fromEnv` names them).
export type CredentialSource =
  { kind: 'sandbox' } | { kind: 'environment' | 'profile'; fromEnv: string[] }

export function credentialSource(ctx: Pick<Context, 'io' | 'globals'>): CredentialSource {
  if (ctx.globals.sandbox) return { kind: 'sandbox' }
  const env = ctx.io.env
  const fromEnv = env.CHAMBERCTL_TOKEN
    ? ['CHAMBERCTL_TOKEN']
    : ['CHAMBERCTL_CLIENT_ID', 'CHAMBERCTL_CLIENT_SECRET'].filter((name) => env[name])
  const selfSufficient =
    ctx.globals.baseUrl !== undefined && (fromEnv.length === 2 || fromEnv[0] === 'CHAMBERCTL_TOKEN')
  return { kind: selfSufficient ? 'environment' : 'profile', fromEnv }
}

// Precedence is flags > env > profile for each value. A profile's credentials serve every base
// URL on the origin (scheme, host, port) it logged in to, e.g. its /v1 and /v2, with a token
// cached per base URL; neither its secret nor its tokens ever go to another origin.
export async function resolveConnection(ctx: Context): Promise<Connection> {
  const env = ctx.io.env
  const envToken = env.CHAMBERCTL_TOKEN || undefined
  const envId = env.CHAMBERCTL_CLIENT_ID || undefined
  const envSecret = env.CHAMBERCTL_CLIENT_SECRET || undefined
  const store = credentialSource(ctx).kind === 'environment' ? undefined : await ctx.profiles()
  // Without a store no profile is read, and `name` names none.
  const name = store?.select(ctx.globals.profile) ?? ''
  const profile: Profile | undefined = store?.get(name)
  const tokens = store?.tokens(name)

  const baseUrl =
    ctx.globals.baseUrl ?? (profile?.base_url && checkBaseUrl(profile.base_url, `profile ${name}`))
  if (!baseUrl) throw new ApiError('not_configured', missingBaseUrl(env))
  const sameOrigin =
    profile?.base_url !== undefined && originOf(profile.base_url) === originOf(baseUrl)
  const clientId = envId ?? profile?.client_id
  const profileClient = sameOrigin && profile?.client_id === clientId
  // CHAMBERCTL_TOKEN is used as is: a 401 must not be "fixed" with the profile's own secret.
  const clientSecret =
    envSecret ?? (profile && profileClient && !envToken ? storedSecret(name, profile) : undefined)

  // The login the profile's cached tokens must belong to.
  const owner = profileClient ? tokenOwner(profile) : undefined
  let cached: CachedToken | undefined
  if (envToken) cached = { token: envToken, from: 'CHAMBERCTL_TOKEN' }
  else if (owner) {
    const stored = tokens?.get(baseUrl, owner)
    // No expiry stored: the server did not give one, so the token serves until it is refused.
    if (stored) cached = { token: stored.access_token, expiresAt: stored.expires_at }
  }
  const elsewhere =
    profile?.base_url !== undefined &&
    !sameOrigin &&
    (profile.client_secret || profile.keyring_account || tokens?.any())
  return {
    baseUrl,
    clientId,
    clientSecret,
    cached,
    hint: elsewhere
      ? `profile ${name} is logged in to ${originOf(profile.base_url!)}, and its credentials are never sent to another origin (${originOf(baseUrl)}): run \`chamberctl login --base-url ${baseUrl}\` (with another --profile to keep this one), or set CHAMBERCTL_TOKEN, or CHAMBERCTL_CLIENT_ID and CHAMBERCTL_CLIENT_SECRET`
      : undefined,
    share: store && owner && !envToken ? sharedRefresh(store, name, baseUrl, owner) : undefined,
  }
}

// What a user with no base URL is told: the variable that is missing when the environment holds
// the rest.
function missingBaseUrl(env: NodeJS.ProcessEnv): string {
  const set = env.CHAMBERCTL_TOKEN
    ? 'CHAMBERCTL_TOKEN is set'
    : env.CHAMBERCTL_CLIENT_ID && env.CHAMBERCTL_CLIENT_SECRET
      ? 'CHAMBERCTL_CLIENT_ID and CHAMBERCTL_CLIENT_SECRET are set'
      : undefined
  if (set === undefined) return LOGIN_HINT
  return `no base URL: ${set}, but not CHAMBERCTL_BASE_URL; set it (or --base-url), or run \`chamberctl login\``
}

// Scheme, host and port, as the URL parser normalises them (default ports dropped).
function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}
