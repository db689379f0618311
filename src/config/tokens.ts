// Tokens cached per profile, one file each: <config dir>/tokens/<profile>.json (0600, in a 0700
// directory), laid out as
//   { "profile": "<name>",
//     "tokens": { "<base URL>": { "access_token": "…", "expires_at": <ms>,
//                                 "client_id": "…", "login": "<login id>" } } }
// A token belongs to the login that got it: the client id and the login id that `login` wrote
// into the profile (a new one at every login, none after logout). One whose owner is not the
// profile's current login is never used, and ProfileStore writes a token only while its login
// is still the profile's (under the config lock), so a refresh that completes after `logout` or
// after a new `login` is discarded. A refresh writes only its own profile's file, never
// config.json, where the profiles and secrets are.
//
// The file is a cache: one that cannot be read (not JSON, another shape) is removed with a
// one-line notice and read as empty, so that it never blocks a command.
import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { isPlainObject } from '../util.js'
import { describeFsError, ensureConfigDir } from './dir.js'
import { parseJsonObject, writeKeys } from './json-file.js'

// Whose a token is: the client and the login (see Profile.login) that obtained it.
export type TokenOwner = { client_id: string; login: string }

// A token obtained with a profile's credentials, cached for one base URL.
export type ProfileToken = {
  access_token: string
  expires_at?: number // epoch ms
}

type StoredToken = ProfileToken & Partial<TokenOwner>
type Tokens = Record<string, StoredToken>

// The latest instant a Date can hold: a later expiry cannot be shown or compared.
const LAST_INSTANT_MS = 8.64e15

export class TokenCache {
  readonly path: string

  constructor(
    private readonly dir: string,
    private readonly profile: string,
    // Told, in one line, what was discarded and why.
    private readonly notice: (message: string) => void = () => {},
  ) {
    this.path = path.join(dir, `${profile}.json`)
  }

  // The token cached for a base URL, if `owner` (the profile's current login) obtained it.
  get(baseUrl: string, owner: TokenOwner | undefined): ProfileToken | undefined {
    const tokens = this.read()
    if (owner === undefined) return undefined
    const key = tokenKey(baseUrl)
    const token = Object.hasOwn(tokens, key) ? tokens[key] : undefined
    if (token?.client_id !== owner.client_id || (token.login ?? '') !== owner.login)
      return undefined
    const { access_token, expires_at } = token
    return expires_at === undefined ? { access_token } : { access_token, expires_at }
  }

  // Whether any token is cached.
  any(): boolean {
    return Object.keys(this.read()).length > 0
  }

  // Keeps a token `owner` obtained for one base URL; `only` drops those of the other base URLs
  // (a new login: the former client's tokens are no use). ProfileStore calls this under its lock,
  // having checked that `owner` is the profile's current login.
  write(
    baseUrl: string,
    token: ProfileToken,
    owner: TokenOwner,
    options: { only?: boolean } = {},
  ): void {
    ensureConfigDir(this.dir)
    const { access_token, expires_at } = token
    const kept: StoredToken = { access_token, ...(expires_at === undefined ? {} : { expires_at }) }
    const tokens = options.only ? {} : this.read()
    tokens[tokenKey(baseUrl)] = { ...kept, ...owner }
    writeKeys(this.path, { profile: this.profile, tokens }, parseTop)
  }

  // Resolves to whether there was anything to remove.
  clear(): boolean {
    const had = this.any()
    rmSync(this.path, { force: true })
    return had
  }

  private read(): Tokens {
    let text: string
    try {
      text = readFileSync(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Object.create(null)
      return this.discard(describeFsError(error))
    }
    let top: Record<string, unknown> | undefined
    try {
      top = parseJsonObject(text)
    } catch {
      return this.discard('not valid JSON')
    }
    if (!top) return this.discard('not a JSON object')
    // The file of another profile whose name differs only in case, on a file system that
    // does not tell them apart: not ours to use, nor to remove.
    if (top.profile !== undefined && top.profile !== this.profile) return Object.create(null)
    const problem = shapeProblem(top.tokens)
    if (problem !== undefined) return this.discard(problem)
    return Object.assign(Object.create(null), top.tokens) as Tokens
  }

  private discard(reason: string): Tokens {
    try {
      rmSync(this.path, { force: true })
    } catch {
      // Left for the next write to replace.
    }
    this.notice(
      `the token cache of profile ${this.profile} could not be read (${reason}) and was ` +
        `discarded: ${this.path}`,
    )
    return Object.create(null)
  }
}

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

// How the file is read before it is written: read() has discarded a file that does not parse.
function parseTop(text: string): Record<string, unknown> {
  return parseJsonObject(text) ?? {}
}

function shapeProblem(tokens: unknown): string | undefined {
  if (tokens === undefined) return undefined
  if (!isPlainObject(tokens)) return '"tokens" is not an object'
  for (const [url, token] of Object.entries(tokens)) {
    if (!isPlainObject(token) || typeof token.access_token !== 'string') {
      return `the token of ${url} has no access_token string`
    }
    const expiresAt = token.expires_at
    if (
      expiresAt !== undefined &&
      !(typeof expiresAt === 'number' && Math.abs(expiresAt) <= LAST_INSTANT_MS)
    ) {
      return `the expiry of ${url}'s token is not a time`
    }
    for (const key of ['client_id', 'login'] as const) {
      if (token[key] !== undefined && typeof token[key] !== 'string') {
        return `the ${key} of ${url}'s token is not a string`
      }
    }
  }
  return undefined
}
