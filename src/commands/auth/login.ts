import { expiryOf } from '../../api/auth.js'
import { requestToken } from '../../api/client.js'
import { clientFor } from '../../cli/api.js'
import type { Readable } from 'node:stream'
import type { Context } from '../../cli/context.js'
import { UsageError } from '../../errors.js'
import { promptSecret, promptText } from '../../io/prompt.js'
import { readInputText } from '../../io/input-text.js'
import { apiVersionOf } from '../../api/client.js'
import { plainHttpHost } from '../../api/plain-http.js'
import { describeExpiry } from './expiry.js'
import { withToken } from '../../config/tokens.js'

export type Options = { clientId?: string; clientSecretStdin?: boolean; storeSecret: boolean }

export async function login(opts: Options, ctx: Context): Promise<void> {
  const { io, globals } = ctx
  if (globals.sandbox) throw new UsageError('--sandbox needs no login')
  const store = await ctx.profiles()
  const previous = store.get(globals.profile)
  const env = io.env

  let baseUrl = globals.baseUrl
  let clientId = opts.clientId ?? (env.CHAMBERCTL_CLIENT_ID || undefined)
  let secret = opts.clientSecretStdin
    ? await readSecret(io.in)
    : env.CHAMBERCTL_CLIENT_SECRET || undefined
  if (opts.clientSecretStdin && !secret)
    throw new UsageError('--client-secret-stdin: stdin was empty')

  if (globals.canPrompt) {
    baseUrl ??= await promptText(io, {
      message: 'Base URL (ending in /v1 or /v2)',
      default: previous?.base_url,
      validate: (value) => {
        if (apiVersionOf(value) === undefined) return 'must be an http(s) URL ending in /v1 or /v2'
        // Asked now, not after the secret is typed: the secret would not be sent there anyway.
        const host = globals.insecureHttp ? undefined : plainHttpHost(value)
        return host ? `plain HTTP to ${host}: use https://, or --insecure-http` : true
      },
    })
    clientId ??= await promptText(io, { message: 'Client id', default: previous?.client_id })
    secret ??= await promptSecret(io, 'Client secret')
  } else {
    baseUrl ??= previous?.base_url
    clientId ??= previous?.client_id
    const missing = [
      !baseUrl && '--base-url',
      !clientId && '--client-id',
      !secret && '--client-secret-stdin',
    ]
    if (missing.some(Boolean)) {
      throw new UsageError(`missing ${missing.filter(Boolean).join(', ')} (cannot prompt here)`)
    }
  }

  const client = clientFor(ctx, { baseUrl: baseUrl!, clientId, clientSecret: secret })
  const token = await requestToken(client.transport, clientId!, secret!)
  ctx.secrets.add(token.access_token)
  const expiresAt = expiryOf(token, Date.now())
  // A new login starts the token cache afresh: tokens of the former client are no use.
  await store.save(
    globals.profile,
    withToken(
      {
        base_url: baseUrl,
        client_id: clientId,
        client_secret: opts.storeSecret ? secret : undefined,
      },
      baseUrl!,
      { access_token: token.access_token, expires_at: expiresAt },
    ),
  )
  if (globals.quiet) return
  io.err.write(
    [
      `Logged in to ${baseUrl} as client ${clientId} (profile ${globals.profile})`,
      `  API version:   ${client.version}`,
      `  token expires: ${expiresAt === undefined ? 'not said by the server' : describeExpiry(expiresAt, Date.now())}`,
      opts.storeSecret
        ? `  secret:        stored in ${store.path} (mode 0600)`
        : '  secret:        not stored; run login again when the token expires',
      '',
    ].join('\n'),
  )
}

// One trailing newline is dropped, so that `echo secret |` and `printf secret |` give the same.
async function readSecret(stdin: Readable): Promise<string> {
  return (await readInputText('-', stdin)).text.replace(/\r?\n$/, '')
}
