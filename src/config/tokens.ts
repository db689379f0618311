// Tokens cached per profile, one file each: <config dir>/tokens/<profile>.json (0600, in a 0700
// directory), laid out as
//   { "profile": "<name>", "tokens": { "<base URL>": { "access_token": "…", "expires_at": <ms> } } }
// A refresh writes only its own profile's file, so concurrent refreshes of different profiles
// never share a read-modify-write, and none touches config.json, where the profiles and secrets
// are. Two processes refreshing the same profile at once both hold a valid token and the last
// write wins; two refreshing its /v1 and /v2 tokens at once may drop one of the two, which costs
// one more token request later, never a credential. Hence no lock.
//
// The file is a cache: one that cannot be read (not JSON, another shape) is removed with a
// one-line notice and read as empty, so that it never blocks a command.
import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { describeFsError, ensureConfigDir } from './dir.js'
import { isObject, loadConf, parseJsonObject, writeKeys } from './conf-file.js'

// A token obtained with a profile's credentials, cached for one base URL.
export type ProfileToken = {
  access_token: string
  expires_at?: number // epoch ms
}

type Tokens = Record<string, ProfileToken>

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

  // The token cached for a base URL.
  get(baseUrl: string): ProfileToken | undefined {
    const tokens = this.read()
    const key = tokenKey(baseUrl)
    return Object.hasOwn(tokens, key) ? tokens[key] : undefined
  }

  // Whether any token is cached.
  any(): boolean {
    return Object.keys(this.read()).length > 0
  }

  // Keeps a newly obtained token for one base URL; `only` drops those of the other base URLs
  // (a new login: the former client's tokens are no use).
  async save(
    baseUrl: string,
    token: ProfileToken,
    options: { only?: boolean } = {},
  ): Promise<void> {
    const Conf = await loadConf()
    ensureConfigDir(this.dir)
    const { access_token, expires_at } = token
    const kept = expires_at === undefined ? { access_token } : { access_token, expires_at }
    const tokens = options.only ? {} : this.read()
    const file = { dir: this.dir, name: this.profile, path: this.path }
    const profile = this.profile
    writeKeys(Conf, file, { profile, tokens: { ...tokens, [tokenKey(baseUrl)]: kept } }, parseTop)
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
    return problem === undefined ? (top.tokens as Tokens) : this.discard(problem)
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

// How conf reads the file before writing it: read() has discarded a file that does not parse.
function parseTop(text: string): Record<string, unknown> {
  return parseJsonObject(text) ?? {}
}

function shapeProblem(tokens: unknown): string | undefined {
  if (tokens === undefined) return undefined
  if (!isObject(tokens)) return '"tokens" is not an object'
  for (const [url, token] of Object.entries(tokens)) {
    if (!isObject(token) || typeof token.access_token !== 'string') {
      return `the token of ${url} has no access_token string`
    }
    const expiresAt = token.expires_at
    if (expiresAt !== undefined && !(typeof expiresAt === 'number' && Number.isFinite(expiresAt))) {
      return `the expiry of ${url}'s token is not a number`
    }
  }
  return undefined
}
