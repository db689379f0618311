// OAuth 2.0 client credentials for the sandbox: one client, bearer tokens bound to an API version.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { tokenRequestSchema, toFieldErrors } from '../api/schemas.js'
import type { ApiVersion, TokenResponse } from '../api/schemas.js'
import { HttpError, mediaType, readBody } from './http.js'

export type Credentials = { clientId: string; clientSecret: string }

export type Grant = { version: ApiVersion; expiresAt: number }

// Where issued tokens are kept, by a digest of the token: the store, so that with --data a token
// outlives a restart of the sandbox (it still expires).
export interface Grants {
  getGrant(digest: string): Grant | undefined
  putGrant(digest: string, grant: Grant, now: number): void
}

export class TokenIssuer {
  constructor(
    private readonly grants: Grants,
    private readonly credentials: Credentials,
    private readonly ttlSeconds: number,
    private readonly now: () => number,
  ) {}

  async issue(req: IncomingMessage, version: ApiVersion): Promise<TokenResponse> {
    const request = await readTokenRequest(req)
    const parsed = tokenRequestSchema.safeParse(request)
    if (!parsed.success) {
      const fields = toFieldErrors(parsed.error)
      if (fields.grant_type && request.grant_type !== undefined) {
        throw new HttpError(400, {
          error: 'unsupported_grant_type',
          error_description: 'grant_type must be client_credentials',
        })
      }
      throw new HttpError(
        fields.client_id || fields.client_secret ? 401 : 400,
        fields.client_id || fields.client_secret
          ? {
              error: 'invalid_client',
              error_description: 'client_id and client_secret are required',
            }
          : { error: 'invalid_request', error_description: 'grant_type is required' },
      )
    }
    const { client_id, client_secret } = parsed.data
    // Both compared, always, so that timing tells nothing about which one was wrong.
    const idMatches = sameSecret(client_id, this.credentials.clientId)
    const secretMatches = sameSecret(client_secret, this.credentials.clientSecret)
    if (!idMatches || !secretMatches) {
      throw new HttpError(401, {
        error: 'invalid_client',
        error_description: 'client authentication failed',
      })
    }
    const token = `sbx_${version}_${randomBytes(24).toString('base64url')}`
    const now = this.now()
    this.grants.putGrant(digestOf(token), { version, expiresAt: now + this.ttlSeconds * 1000 }, now)
    return { access_token: token, token_type: 'Bearer', expires_in: this.ttlSeconds }
  }

  // Throws the 401 the contract asks for unless the request carries a live token of `version`.
  authenticate(req: IncomingMessage, version: ApiVersion): void {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')
    const grant = match ? this.grants.getGrant(digestOf(match[1]!)) : undefined
    let description: string | undefined
    if (!match) description = 'an Authorization: Bearer token is required'
    else if (!grant || grant.version !== version) {
      description = `the access token is not valid for ${version}`
    } else if (grant.expiresAt <= this.now()) description = 'the access token has expired'
    if (description) {
      throw new HttpError(
        401,
        { error: 'invalid_token', error_description: description },
        {
          'www-authenticate': match
            ? `Bearer error="invalid_token", error_description="${description}"`
            : 'Bearer',
        },
      )
    }
  }
}

type RawTokenRequest = Record<string, unknown>

// Credentials come in a JSON or form body, or as HTTP Basic with grant_type in the body.
async function readTokenRequest(req: IncomingMessage): Promise<RawTokenRequest> {
  const type = mediaType(req)
  const text = await readBody(req)
  let body: RawTokenRequest = {}
  if (type === 'application/x-www-form-urlencoded') {
    body = Object.fromEntries(new URLSearchParams(text))
  } else if (text.trim() !== '') {
    if (type !== undefined && type !== 'application/json') {
      throw new HttpError(415, {
        error: 'invalid_request',
        error_description: 'send application/json or application/x-www-form-urlencoded',
      })
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new HttpError(400, {
        error: 'invalid_request',
        error_description: 'request body is not valid JSON',
      })
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      throw new HttpError(400, {
        error: 'invalid_request',
        error_description: 'request body must be a JSON object',
      })
    }
    body = json as RawTokenRequest
  }
  const basic = /^Basic\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    if (colon < 0) {
      throw new HttpError(401, {
        error: 'invalid_client',
        error_description: 'malformed Basic credentials',
      })
    }
    // RFC 6749 §2.3.1: both parts are form-urlencoded before they are joined.
    body = {
      ...body,
      client_id: formDecode(decoded.slice(0, colon)),
      client_secret: formDecode(decoded.slice(colon + 1)),
    }
  }
  return body
}

function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '))
  } catch {
    return value
  }
}

function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected))
}

const digest = (value: string) => createHash('sha256').update(value).digest()

// What the store keeps of a token: a leaked data file holds no token that opens the API.
const digestOf = (token: string) => digest(token).toString('base64url')
