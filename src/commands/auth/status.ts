import { apiVersionOf, displayUrl } from '../../api/base-url.js'
import { ApiError } from '../../api/errors.js'
import { profiles } from '../../api/resources/profiles.js'
import { LOGIN_HINT, credentialSource } from '../../cmdutil/connect.js'
import type { CredentialSource } from '../../cmdutil/connect.js'
import type { Context } from '../../cmdutil/context.js'
import { outputOptions } from '../../cmdutil/print.js'
import { ExitCode, CliError, describeError } from '../../errors.js'
import { tokenOwner } from '../../config/profiles.js'
import type { Profile } from '../../config/profiles.js'
import type { ProfileToken } from '../../config/tokens.js'
import { put, writeList } from '../../io/output.js'
import { escapeForTerminal } from '../../io/terminal-text.js'
import { describeExpiry, instant } from './expiry.js'
import { describeMode } from './file-mode.js'
import { fitText, say } from '../../io/wrap.js'

// One per profile, in every machine format (contract §3).
export type ProfileStatus = {
  profile: string
  active: boolean
  base_url: string | null
  api_version: string | null
  client_id: string | null
  secret_storage: 'keyring' | 'config_file' | 'none'
  token_valid: boolean
  expires_at: string | null
}

const SECRET_PLACES: Record<ProfileStatus['secret_storage'], string> = {
  keyring: 'in the OS keyring',
  config_file: 'in the config file',
  none: 'not stored',
}

// Proves the credentials a command would use can authenticate (one request with their token,
// cached or obtained and then cached), then shows every profile from what is stored, the active
// one marked, and says what was checked. Exit 4 if they can't.
export async function status(ctx: Context): Promise<void> {
  const { io, globals } = ctx
  const store = await ctx.profiles()
  // A --profile that names no profile is refused before anything is sent.
  const selected = store.select(globals.profile)
  const source = credentialSource(ctx)
  const subject = describeSource(source, selected)

  const checked = await check(ctx)
  const now = Date.now()
  const records = Object.entries(store.list()).map(([name, profile]) =>
    statusOf(name, profile, {
      active: source.kind === 'profile' && name === selected,
      // The token of the profile's own base URL; those of its other versions are cached alike.
      token: profile.base_url
        ? store.tokens(name).get(profile.base_url, tokenOwner(profile))
        : undefined,
      now,
    }),
  )
  if (globals.format === 'table' && globals.fields === undefined) {
    const places = { ...SECRET_PLACES }
    places.config_file += describeMode(store.fileMode())
    const blocks = renderBlocks(records, source, globals.baseUrl, now, places)
    await put(io.out, await fitText(blocks, io.stdoutWidth))
  } else {
    await writeList(io, records, outputOptions(globals, profiles))
  }

  if ('error' in checked) {
    const { message, exitCode } = describeError(checked.error, ctx.secrets.redact)
    // A server that cannot be reached, or fails, says nothing about the credentials.
    if (exitCode !== ExitCode.auth) throw checked.error
    throw new CliError(`${subject} cannot authenticate: ${message}`, ExitCode.auth, 'auth')
  }
  if (!globals.quiet) {
    // The sandbox's port is new every run; its API version is what tells.
    const where = globals.sandbox
      ? ` (API ${globals.sandbox})`
      : ` at ${displayUrl(checked.baseUrl)}`
    await say(io, `Checked ${subject}${where}: can authenticate`)
  }
}

async function check(ctx: Context): Promise<{ baseUrl: string } | { error: unknown }> {
  try {
    const client = await ctx.api()
    if (!client.tokens) throw new ApiError('not_configured', LOGIN_HINT)
    await client.tokens.token()
    // A token is only proven by a server that accepts it.
    await client.chambers.list({ perPage: 1 })
    return { baseUrl: client.baseUrl }
  } catch (error) {
    return { error }
  }
}

function describeSource(source: CredentialSource, profile: string): string {
  const names = source.kind === 'sandbox' ? '' : source.fromEnv.join(', ')
  switch (source.kind) {
    case 'sandbox':
      return 'the sandbox'
    case 'environment':
      return `the environment's credentials (${names})`
    case 'profile':
      return names === '' ? `profile ${profile}` : `profile ${profile} with ${names}`
  }
}

function statusOf(
  name: string,
  profile: Profile,
  { active, token, now }: { active: boolean; token: ProfileToken | undefined; now: number },
): ProfileStatus {
  const expires = token?.expires_at
  return {
    profile: name,
    active,
    base_url: profile.base_url === undefined ? null : displayUrl(profile.base_url),
    api_version: (profile.base_url && apiVersionOf(profile.base_url)) || null,
    client_id: profile.client_id ?? null,
    // Said from the profile alone: asking the keyring would cost every status a D-Bus round trip.
    secret_storage: profile.keyring_account
      ? 'keyring'
      : profile.client_secret
        ? 'config_file'
        : 'none',
    // No expiry stored: the server gave none, so the token serves until it is refused.
    token_valid:
      token !== undefined && token.access_token !== '' && (expires === undefined || expires > now),
    expires_at: expires === undefined ? null : new Date(expires).toISOString(),
  }
}

// gh's view: a block of `label: value` lines per profile, every value whole whatever the width
// (a long URL goes to a line of its own, under the values, rather than being cut). Credentials from the environment or the sandbox get
// a block of their own, marked active, since no profile's are in use then.
function renderBlocks(
  records: ProfileStatus[],
  source: CredentialSource,
  baseUrl: string | undefined,
  now: number,
  places: typeof SECRET_PLACES,
): string {
  const blocks = records.map((record) =>
    block(`${record.profile}${record.active ? ' (active)' : ''}`, [
      ['Base URL', record.base_url ?? 'none'],
      ['API version', record.api_version ?? 'none'],
      ['Client id', record.client_id ?? 'none'],
      ['Secret', places[record.secret_storage]],
      ['Token', tokenLine(record, now)],
    ]),
  )
  if (source.kind === 'sandbox') {
    blocks.push(block('sandbox (active)', [['Credentials', 'its own; no login needed']]))
  } else if (source.kind === 'environment') {
    blocks.push(
      block('environment (active)', [
        ['Base URL', displayUrl(baseUrl ?? '')],
        ['API version', (baseUrl && apiVersionOf(baseUrl)) || 'none'],
        ['Credentials', source.fromEnv.join(', ')],
      ]),
    )
  }
  return blocks.join('\n')
}

function block(title: string, lines: [string, string][]): string {
  const width = Math.max(...lines.map(([label]) => label.length)) + 2
  return [
    escapeForTerminal(title),
    ...lines.map(([label, value]) => `  ${`${label}:`.padEnd(width)}${escapeForTerminal(value)}`),
    '',
  ].join('\n')
}

function tokenLine(record: ProfileStatus, now: number): string {
  if (record.expires_at === null) return record.token_valid ? 'cached, no expiry given' : 'none'
  const expires = Date.parse(record.expires_at)
  return record.token_valid
    ? `valid until ${describeExpiry(expires, now)}`
    : `expired at ${instant(expires)}`
}
