// Builds the API client for a command: where to connect (flags > env > profile, or the embedded
// sandbox) and how to authenticate (CHAMBERCTL_TOKEN, client credentials from env or profile,
// the profile's cached token). Imported only by commands that talk to the API.
import { join } from 'node:path'
import { TokenManager, isUsable } from '../api/auth.js'
import type { CachedToken, TokenManagerOptions } from '../api/auth.js'
import { checkBaseUrl } from '../api/base-url.js'
import { createClient, requestToken } from '../api/client.js'
import type { Client, ClientOptions } from '../api/client.js'
import { ApiError } from '../api/errors.js'
import { plainHttpHost } from '../api/plain-http.js'
import { proxiesFor } from '../api/proxy.js'
import { configDir, ensureConfigDir } from '../config/dir.js'
import { tokenOwner } from '../config/profiles.js'
import type { Profile, ProfileStore } from '../config/profiles.js'
import type { TokenOwner } from '../config/tokens.js'
import type { ApiOptions, Context } from './context.js'
import { escapeForTerminal } from '../io/terminal-text.js'
import { UsageError } from '../errors.js'
import { VERSION } from './version.js'

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

export async function buildClient(ctx: Context, options: ApiOptions = {}): Promise<Client> {
  const connection = ctx.globals.sandbox ? await embeddedSandbox(ctx) : await resolveConnection(ctx)
  return clientFor(ctx, connection, {
    dispatcher: ctx.dispatcher,
    connections: options.connections,
    sleep: ctx.sleep,
  })
}

// `transport` lets a caller bring its own dispatcher and backoff timer (completion does, to drop
// a lookup that ran out of time).
export async function clientFor(
  ctx: Context,
  connection: Connection,
  transport: Pick<ClientOptions, 'dispatcher' | 'connections' | 'sleep'> = {},
): Promise<Client> {
  // Every connection passes here: a profile's base URL, the login prompt's, the sandbox's (the
  // flag and CHAMBERCTL_BASE_URL were checked with the global options already).
  checkBaseUrl(connection.baseUrl)
  const { clientId, clientSecret } = connection
  if (clientSecret || connection.cached) refuseInsecure(ctx, connection.baseUrl)
  // A secret still in the keyring is added once read.
  ctx.secrets.add(typeof clientSecret === 'string' ? clientSecret : undefined)
  ctx.secrets.add(connection.cached?.token)
  const tokens = new TokenManager({
    cached: connection.cached,
    obtain:
      clientId && clientSecret
        ? async () => {
            const secret = typeof clientSecret === 'string' ? clientSecret : await clientSecret()
            ctx.secrets.add(secret)
            const answer = await requestToken(client.transport, clientId, secret)
            ctx.secrets.add(answer.access_token)
            return answer
          }
        : undefined,
    // A token another process stored is a secret of this one too.
    share:
      connection.share &&
      (async (replacing, fetch) => {
        const shared = await connection.share!(replacing, fetch)
        ctx.secrets.add(shared.token)
        return shared
      }),
    hint: connection.hint ?? LOGIN_HINT,
  })
  // undici's proxy agent is loaded only for a proxy the environment names.
  const proxy = transport.dispatcher ? undefined : proxiesFor(connection.baseUrl, ctx.io.env)
  const client = createClient({
    baseUrl: connection.baseUrl,
    userAgent: `chamberctl/${VERSION}`,
    timeoutMs: ctx.globals.timeoutMs,
    proxy: proxy && (await import('../api/proxy-agent.js')).proxyDispatcher(proxy),
    tokens,
    trace: ctx.globals.debug
      ? // A trace holds answers as they came; its own lines are split at line breaks.
        (line) => ctx.io.err.write(`debug: ${escapeForTerminal(ctx.secrets.redact(line), '\n')}\n`)
      : undefined,
    watch: ctx.waiting.watch,
    ...transport,
  })
  ctx.cleanup.push(() => client.close())
  return client
}

// Before anything is sent: a secret or token for a plain-HTTP host other than this machine
// would cross the network in clear.
function refuseInsecure(ctx: Context, baseUrl: string): void {
  const host = plainHttpHost(baseUrl)
  if (!host) return
  if (!ctx.globals.insecureHttp) {
    throw new UsageError(
      `refusing to send credentials over plain HTTP to ${host}: use an https:// base URL, ` +
        'or --insecure-http (CHAMBERCTL_INSECURE_HTTP=1) if you really mean it',
    )
  }
  if (!ctx.globals.quiet) {
    ctx.io.err.write(`warning: credentials go over plain HTTP to ${host} (--insecure-http)\n`)
  }
}

async function embeddedSandbox(ctx: Context): Promise<Connection> {
  const { startSandbox } = await import('../sandbox/server.js')
  const dir = configDir(ctx.io.env)
  ensureConfigDir(dir)
  // Processes at once share the database; SQLite serializes their writes, one at a time.
  const sandbox = await startSandbox({ port: 0, dataFile: join(dir, 'sandbox.db') })
  ctx.cleanup.push(() => sandbox.close())
  return { baseUrl: sandbox.baseUrl(ctx.globals.sandbox!), ...sandbox.credentials }
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

// A token for a profile's login, obtained once for every process that needs one at the same
// moment: under the profile's refresh lock, a token another process stored meanwhile (usable, for
// this login, and not the one being replaced) is taken; else one is fetched and stored, unless
// the login has changed since (logout, a new login), when it serves this command only. A token
// that cannot be stored costs only a token request later.
function sharedRefresh(
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

function storedSecret(
  name: string,
  profile: Profile,
): string | (() => Promise<string>) | undefined {
  const account = profile.keyring_account
  if (account === undefined) return profile.client_secret
  let read: Promise<string> | undefined
  return () => (read ??= readKeyringSecret(name, account))
}

async function readKeyringSecret(name: string, account: string): Promise<string> {
  const { readFromKeyring, KeyringUnavailable } = await import('../config/keyring.js')
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

// Scheme, host and port, as the URL parser normalises them (default ports dropped).
function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}
