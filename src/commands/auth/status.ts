import { apiVersionOf } from '../../api/client.js'
import { ApiError } from '../../api/errors.js'
import { LOGIN_HINT } from '../../cmdutil/connect.js'
import type { Context } from '../../cmdutil/context.js'
import { ExitCode, CliError, describeError } from '../../errors.js'
import type { Profile } from '../../config/profiles.js'
import { writeList } from '../../io/output.js'
import { describeExpiry } from './expiry.js'
import { tokenFor } from '../../config/tokens.js'

const COLUMNS = ['profile', 'active', 'base_url', 'api_version', 'client_id', 'secret', 'token']

// Lists every profile from what is stored, then proves the active one can authenticate: one
// request with its token (cached, or obtained and then cached). Exit 4 if it can't.
export async function status(ctx: Context): Promise<void> {
  const { io, globals } = ctx
  const now = Date.now()
  const rows: Record<string, unknown>[] = []
  if (globals.sandbox) {
    rows.push({ profile: '(sandbox)', active: true, api_version: globals.sandbox })
  } else {
    const env = io.env
    // The environment wins when it holds all a command needs (see resolveConnection).
    const envActive = Boolean(
      globals.baseUrl &&
      (env.CHAMBERCTL_TOKEN || (env.CHAMBERCTL_CLIENT_ID && env.CHAMBERCTL_CLIENT_SECRET)),
    )
    const profiles = (await ctx.profiles()).list()
    for (const [name, profile] of Object.entries(profiles)) {
      rows.push(row(name, profile, !envActive && name === globals.profile, now))
    }
    if (env.CHAMBERCTL_TOKEN || env.CHAMBERCTL_CLIENT_ID || env.CHAMBERCTL_BASE_URL) {
      rows.push({
        profile: '(environment)',
        active: envActive,
        base_url: globals.baseUrl,
        api_version: globals.baseUrl && apiVersionOf(globals.baseUrl),
        client_id: io.env.CHAMBERCTL_CLIENT_ID,
        secret: io.env.CHAMBERCTL_CLIENT_SECRET ? 'set' : 'none',
        token: io.env.CHAMBERCTL_TOKEN ? 'set' : 'none',
      })
    }
  }
  await writeList(io, rows, {
    format: globals.format,
    columns: COLUMNS,
    fields: globals.fields,
    color: globals.color,
    jq: globals.jq,
  })

  try {
    const client = await ctx.api()
    if (!client.tokens) throw new ApiError('not_configured', LOGIN_HINT)
    await client.tokens.token()
    // A token is only proven by a server that accepts it.
    await client.chambers.list({ perPage: 1 })
  } catch (error) {
    const { message, exitCode } = describeError(error, ctx.secrets.redact)
    // A server that cannot be reached, or fails, says nothing about the credentials.
    if (exitCode !== ExitCode.auth) throw error
    throw new CliError(
      `profile ${globals.profile} cannot authenticate: ${message}`,
      ExitCode.auth,
      'auth',
    )
  }
  if (!globals.quiet) io.err.write(`Profile ${globals.profile} can authenticate\n`)
}

function row(name: string, profile: Profile, active: boolean, now: number) {
  // The token of the profile's own base URL; those of its other versions are cached alike.
  const token = profile.base_url ? tokenFor(profile, profile.base_url) : undefined
  const expires = token?.expires_at
  return {
    profile: name,
    active,
    base_url: profile.base_url,
    api_version: profile.base_url && apiVersionOf(profile.base_url),
    client_id: profile.client_id,
    // Said from the profile alone: asking the keyring would cost every status a D-Bus round trip.
    secret: profile.keyring_account ? 'keyring' : profile.client_secret ? 'config file' : 'none',
    token: !token
      ? 'none'
      : expires === undefined
        ? 'stored, no expiry given'
        : expires > now
          ? `valid until ${describeExpiry(expires, now)}`
          : 'expired',
  }
}
