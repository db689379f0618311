// Access tokens: reuse a cached one until shortly before it expires, obtain a new one with the
// client credentials when needed, and refresh once when the server rejects one. Concurrent
// requests (pages of --all) that hit a 401 together share a single refresh.
import { ApiError } from './errors.js'
import type { TokenAnswer } from './answers.js'
import type { TokenSource } from './transport.js'

// `from`: the variable a token the user gave came from (CHAMBERCTL_TOKEN), for a refusal to name.
export type CachedToken = { token: string; expiresAt?: number; from?: string }

export type TokenManagerOptions = {
  // A token to start with: CHAMBERCTL_TOKEN (no expiry known) or the profile's cached one.
  cached?: CachedToken
  // Obtains a new token; absent when there are no client credentials.
  obtain?: () => Promise<TokenAnswer>
  // Where a token is shared with other processes (a profile's cache): resolves to a usable token
  // another process has just obtained in place of `replacing`, or calls `fetch` and keeps what
  // it gets. Without it, `fetch` alone.
  share?: (replacing: string | undefined, fetch: () => Promise<CachedToken>) => Promise<CachedToken>
  now?: () => number
  // What to tell a user who has no way to authenticate.
  hint?: string
}

// Refresh this long before the server's expiry, so a request never leaves with a dying token.
export const EXPIRY_SKEW_MS = 30_000

// The longest a token is trusted for, whatever the server says: a lifetime of 1e16 s is no
// instant at all, and a month is more than any token needs between two refreshes.
export const MAX_TOKEN_LIFETIME_S = 30 * 24 * 60 * 60

// When a token expires: `expires_in` is read as seconds (the unit the sandbox and OAuth use), at
// most MAX_TOKEN_LIFETIME_S. A server that does not say gets a token used until it is refused.
export function expiryOf(response: TokenAnswer, now: number): number | undefined {
  if (response.expires_in === undefined) return undefined
  return now + Math.min(response.expires_in, MAX_TOKEN_LIFETIME_S) * 1000
}

// Whether a token can still be sent: not empty, and not within EXPIRY_SKEW_MS of its expiry.
export function isUsable(token: CachedToken, now: number): boolean {
  return (
    token.token !== '' && (token.expiresAt === undefined || token.expiresAt - EXPIRY_SKEW_MS > now)
  )
}

export class TokenManager implements TokenSource {
  private current: CachedToken | undefined
  private pending: Promise<string> | undefined
  private readonly now: () => number

  constructor(private readonly options: TokenManagerOptions) {
    this.current = options.cached
    this.now = options.now ?? Date.now
  }

  get from(): string | undefined {
    return this.current?.from
  }

  get canRefresh(): boolean {
    return this.options.obtain !== undefined
  }

  // The token in use and its expiry, once one has been had.
  get cached(): CachedToken | undefined {
    return this.current
  }

  async token(): Promise<string> {
    const current = this.current
    if (current && isUsable(current, this.now())) return current.token
    return this.obtain(current?.token)
  }

  async refresh(rejected: string): Promise<string | undefined> {
    if (this.current && this.current.token !== rejected) return this.current.token
    if (!this.canRefresh) return undefined
    return this.obtain(rejected)
  }

  // `replacing`: the token this one replaces, never to be taken back from another process.
  private obtain(replacing: string | undefined): Promise<string> {
    const obtain = this.options.obtain
    if (!obtain) {
      return Promise.reject(
        new ApiError('not_configured', this.options.hint ?? 'no credentials to authenticate with'),
      )
    }
    this.pending ??= (async () => {
      try {
        const fetch = async (): Promise<CachedToken> => {
          const response = await obtain()
          return { token: response.access_token, expiresAt: expiryOf(response, this.now()) }
        }
        const share = this.options.share
        const fresh = share ? await share(replacing, fetch) : await fetch()
        this.current = fresh
        return fresh.token
      } finally {
        this.pending = undefined
      }
    })()
    return this.pending
  }
}
