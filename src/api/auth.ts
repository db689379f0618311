// Access tokens: reuse a cached one until shortly before it expires, obtain a new one with the
// client credentials when needed, and refresh once when the server rejects one. Concurrent
// requests (pages of --all) that hit a 401 together share a single refresh.
import { ApiError } from './errors.js'
import type { TokenAnswer } from './answers.js'
import type { TokenSource } from './transport.js'

export type CachedToken = { token: string; expiresAt?: number }

export type TokenManagerOptions = {
  // A token to start with: CHAMBERCTL_TOKEN (no expiry known) or the profile's cached one.
  cached?: CachedToken
  // Obtains a new token; absent when there are no client credentials.
  obtain?: () => Promise<TokenAnswer>
  // Keeps a newly obtained token (in the profile); failures to save do not fail the command.
  save?: (token: CachedToken) => Promise<void>
  now?: () => number
  // What to tell a user who has no way to authenticate.
  hint?: string
}

// Refresh this long before the server's expiry, so a request never leaves with a dying token.
export const EXPIRY_SKEW_MS = 30_000

// When a token expires: `expires_in` is read as seconds (the unit the sandbox and OAuth use). A
// server that does not say gets a token used until it is refused.
export function expiryOf(response: TokenAnswer, now: number): number | undefined {
  return response.expires_in === undefined ? undefined : now + response.expires_in * 1000
}

export class TokenManager implements TokenSource {
  private current: CachedToken | undefined
  private pending: Promise<string> | undefined
  private readonly now: () => number

  constructor(private readonly options: TokenManagerOptions) {
    this.current = options.cached
    this.now = options.now ?? Date.now
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
    if (
      current &&
      (current.expiresAt === undefined || current.expiresAt - EXPIRY_SKEW_MS > this.now())
    ) {
      return current.token
    }
    return this.obtain()
  }

  async refresh(rejected: string): Promise<string | undefined> {
    if (this.current && this.current.token !== rejected) return this.current.token
    if (!this.canRefresh) return undefined
    return this.obtain()
  }

  private obtain(): Promise<string> {
    const obtain = this.options.obtain
    if (!obtain) {
      return Promise.reject(
        new ApiError('not_configured', this.options.hint ?? 'no credentials to authenticate with'),
      )
    }
    this.pending ??= (async () => {
      try {
        const response = await obtain()
        const fresh = { token: response.access_token, expiresAt: expiryOf(response, this.now()) }
        this.current = fresh
        await this.options.save?.(fresh).catch(() => {})
        return fresh.token
      } finally {
        this.pending = undefined
      }
    })()
    return this.pending
  }
}
