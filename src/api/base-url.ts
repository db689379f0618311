// The base URL rules of contract §1, checked where a base URL enters (--base-url,
// CHAMBERCTL_BASE_URL, a profile, the login prompt): http or https, a path ending in /v1 or /v2
// (a trailing / is fine), no query, no fragment, no user name or password. Anything else is a
// usage error before a byte is sent, and a password in it is never printed back.
import { UsageError } from '../errors.js'
import { API_VERSIONS } from './constants.js'
import type { ApiVersion } from './constants.js'

// What is wrong with a base URL, or undefined when nothing is.
export function baseUrlProblem(value: string): string | undefined {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'is not a URL'
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return `must be http:// or https://, not ${url.protocol}//`
  }
  if (url.username || url.password) {
    return 'must not contain a user name or password: chamberctl authenticates with client credentials'
  }
  // `?` and `#` alone leave search and hash empty, and would still end up in every request path.
  if (value.includes('?')) return 'must not contain a query (?…)'
  if (value.includes('#')) return 'must not contain a fragment (#…)'
  return apiVersionOf(value) ? undefined : 'must end in /v1 or /v2'
}

// The version is the base URL's last path segment (spec §9).
export function apiVersionOf(baseUrl: string): ApiVersion | undefined {
  let path: string
  try {
    path = new URL(baseUrl).pathname
  } catch {
    return undefined
  }
  const last = path.replace(/\/+$/, '').split('/').pop()
  return API_VERSIONS.find((version) => version === last)
}

// The base URL, or a usage error naming where it came from.
export function checkBaseUrl(value: string, source?: string): string {
  const problem = baseUrlProblem(value)
  if (!problem) return value
  const from = source ? `${source}: ` : ''
  throw new UsageError(`${from}base URL ${displayUrl(value)} ${problem}`)
}

// A URL as it may be shown: without its `user:password@` part (the password would be on screen
// and in logs).
export function displayUrl(value: string): string {
  return value.replace(/^([a-z][a-z\d+.-]*:\/\/)[^/?#]*@/i, '$1')
}
