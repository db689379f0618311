// Builds the API client for a command: where to connect (flags > env > profile, or the embedded
// sandbox) and how to authenticate (CHAMBERCTL_TOKEN, client credentials from env or profile,
// the profile's cached token). Imported only by commands that talk to the API. The jobs live in
// connect/: connection.ts (precedence), stored-secret.ts (a secret in the OS keyring),
// shared-token.ts (one refresh for every process), insecure-http.ts (the plain-HTTP rule),
// sandbox.ts (--sandbox).
import { TokenManager } from '../api/auth.js'
import { checkBaseUrl } from '../api/base-url.js'
import { createClient, requestToken } from '../api/client.js'
import type { Client, ClientOptions } from '../api/client.js'
import { proxiesFor } from '../api/proxy.js'
import { escapeForTerminal } from '../io/terminal-text.js'
import { LOGIN_HINT, resolveConnection } from './connect/connection.js'
import type { Connection } from './connect/connection.js'
import { refuseInsecure } from './connect/insecure-http.js'
import { embeddedSandbox } from './connect/sandbox.js'
import type { ApiOptions, Context } from './context.js'
import { VERSION } from './version.js'

export { LOGIN_HINT, credentialSource, resolveConnection } from './connect/connection.js'
export type { Connection, CredentialSource } from './connect/connection.js'

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
  if (clientSecret || connection.cached) await refuseInsecure(ctx, connection.baseUrl)
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
