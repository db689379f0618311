import { expiryOf } from '../../api/auth.js'
import { requestToken } from '../../api/client.js'
import { clientFor } from '../../cmdutil/connect.js'
import { randomUUID } from 'node:crypto'
import type { Readable } from 'node:stream'
import type { Exactly } from '../../cmdutil/command.js'
import type { Context, Globals } from '../../cmdutil/context.js'
import { UsageError } from '../../errors.js'
import { promptSecret, promptText } from '../../io/prompt.js'
import { readInputText } from '../../io/input-text.js'
import { escapeForTerminal } from '../../io/terminal-text.js'
import { baseUrlProblem } from '../../api/base-url.js'
import { plainHttpHost } from '../../api/plain-http.js'
import { proxiesFor } from '../../api/proxy.js'
import { checkReachable } from '../../api/reachable.js'
import { describeExpiry } from './expiry.js'
import { describeMode } from './file-mode.js'
import { say } from '../../io/wrap.js'

export type Options = {
  clientId?: string
  clientSecretStdin?: boolean
  storeSecret: boolean
  // Keep the secret in the 0600 config file rather than the OS keyring.
  insecureStorage?: boolean
}

export function toOptions<F extends Options>(
  flags: Exactly<F, Options>,
  globals: Pick<Globals, 'sandbox'>,
): Options {
  if (globals.sandbox) throw new UsageError('--sandbox needs no login')
  return flags
}

export async function login(opts: Options, ctx: Context): Promise<void> {
  const { io, globals } = ctx
  const store = await ctx.profiles()
  const name = store.select(globals.profile, { create: true })
  const previous = store.get(name)
  const env = io.env

  let baseUrl = globals.baseUrl
  let clientId = opts.clientId ?? (env.CHAMBERCTL_CLIENT_ID || undefined)
  const envSecret = env.CHAMBERCTL_CLIENT_SECRET || undefined
  // stdin is read once: with the secret on it, nothing can be asked there (a prompt after the
  // secret's end of input closed at once, "interrupted"), and what is missing is named before
  // stdin is read.
  const prompting = globals.canPrompt && !opts.clientSecretStdin
  if (!prompting) {
    baseUrl ??= previous?.base_url
    clientId ??= previous?.client_id
    const missing = [
      !baseUrl && '--base-url',
      !clientId && '--client-id',
      !opts.clientSecretStdin && !envSecret && '--client-secret-stdin',
    ].filter(Boolean)
    if (missing.length) {
      const why = opts.clientSecretStdin
        ? 'not prompting: stdin holds the secret'
        : 'cannot prompt here'
      throw new UsageError(`missing ${missing.join(', ')} (${why})`)
    }
  }
  let secret = opts.clientSecretStdin ? await readSecret(io.in) : envSecret
  if (opts.clientSecretStdin && !secret)
    throw new UsageError('--client-secret-stdin: stdin was empty')

  if (prompting) {
    baseUrl ??= await promptText(io, {
      message: 'Base URL (ending in /v1 or /v2)',
      default: previous?.base_url,
      validate: (value) => {
        const problem = baseUrlProblem(value)
        if (problem) return problem
        // Asked now, not after the secret is typed: the secret would not be sent there anyway.
        const host = globals.insecureHttp ? undefined : plainHttpHost(value)
        return host ? `plain HTTP to ${host}: use https://, or --insecure-http` : true
      },
    })
    clientId ??= await promptText(io, { message: 'Client id', default: previous?.client_id })
    if (secret === undefined) {
      // A server that cannot be reached is said before the secret is typed in vain.
      if (!proxiesFor(baseUrl, env)) await checkReachable(baseUrl, globals.timeoutMs)
      secret = await promptSecret(io, 'Client secret')
    }
  }

  const client = await clientFor(ctx, { baseUrl: baseUrl!, clientId, clientSecret: secret })
  const token = await requestToken(client.transport, clientId!, secret!)
  ctx.secrets.add(token.access_token)
  const expiresAt = expiryOf(token, Date.now())
  const kept = opts.storeSecret
    ? await keepSecret(secret!, {
        profile: name,
        account: previous?.keyring_account,
        insecure: opts.insecureStorage === true,
      })
    : await dropKeyringSecret(previous?.keyring_account)
  // A new login: its own login id, and a token cache holding only its token.
  await store.login(
    name,
    {
      base_url: baseUrl,
      client_id: clientId,
      client_secret: kept.where === 'file' ? secret : undefined,
      keyring_account: kept.where === 'keyring' ? kept.account : undefined,
    },
    baseUrl!,
    { access_token: token.access_token, expires_at: expiresAt },
  )
  const inFile = `${store.path}${describeMode(store.fileMode())}`
  if (globals.debug && kept.where === 'file' && kept.fallback !== undefined) {
    io.err.write(`debug: OS keyring: ${escapeForTerminal(kept.fallback)}\n`)
  }
  if (globals.quiet) return
  await say(
    io,
    [
      `Logged in to ${baseUrl} as client ${clientId} (profile ${name})`,
      `  API version:   ${client.version}`,
      `  token expires: ${expiresAt === undefined ? 'not said by the server' : describeExpiry(expiresAt, Date.now())}`,
      kept.where === 'keyring'
        ? '  secret:        stored in the OS keyring'
        : kept.where === 'file'
          ? `  secret:        stored in ${inFile}`
          : '  secret:        not stored; run login again when the token expires',
    ].join('\n'),
  )
  // A secret left in the file for want of a keyring: the line above says where, this one why
  // and the choice that silences it (-q silences it too); why there is no keyring is the
  // system's business, shown only under --debug.
  if (kept.where === 'file' && kept.fallback !== undefined) {
    await say(
      io,
      'warning: no OS keyring; --insecure-storage chooses the file without this warning',
    )
  }
}

type Kept =
  | { where: 'keyring'; account: string }
  | { where: 'file'; fallback?: string }
  | { where: 'nowhere' }

// The OS keyring unless the user chose the file, or there is none to be had. A profile logged in
// again keeps its keyring entry, overwritten; one that moves to the file leaves none behind.
async function keepSecret(
  secret: string,
  opts: { profile: string; account: string | undefined; insecure: boolean },
): Promise<Kept> {
  if (opts.insecure) {
    await dropKeyringSecret(opts.account)
    return { where: 'file' }
  }
  const { storeInKeyring, KeyringUnavailable } = await import('../../config/keyring.js')
  // A random part keeps profiles of the same name in other config directories apart.
  const account = opts.account ?? `${opts.profile}:${randomUUID()}`
  try {
    await storeInKeyring(account, secret)
    return { where: 'keyring', account }
  } catch (error) {
    if (!(error instanceof KeyringUnavailable)) throw error
    return { where: 'file', fallback: error.reason }
  }
}

// Best effort: the entry is the user's to remove by hand if the keyring cannot be reached now.
async function dropKeyringSecret(account: string | undefined): Promise<{ where: 'nowhere' }> {
  if (account !== undefined) {
    const { removeFromKeyring } = await import('../../config/keyring.js')
    await removeFromKeyring(account).catch(() => false)
  }
  return { where: 'nowhere' }
}

// One trailing newline is dropped, so that `echo secret |` and `printf secret |` give the same.
async function readSecret(stdin: Readable): Promise<string> {
  return (await readInputText('-', stdin)).text.replace(/\r?\n$/, '')
}
