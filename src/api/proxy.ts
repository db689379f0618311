// Which proxy a base URL's requests go through, read from the environment as curl reads it:
// HTTPS_PROXY for an https URL (CONNECT), HTTP_PROXY for an http one (a forward proxy), each in
// its lower-case form first, and NO_PROXY's hosts (matched by undici's EnvHttpProxyAgent) left
// out. A loopback host is never proxied, as Go's net/http (gh, kubectl, doctl) does it: the
// embedded sandbox and a server on this machine are reached directly, and credentials that may
// travel in clear to loopback (contract §2) never travel in clear to a proxy.
import { isLoopback } from './plain-http.js'

export type ProxyEnv = Record<string, string | undefined>

// Where a client's requests go through a proxy: the values of HTTP_PROXY, HTTPS_PROXY and
// NO_PROXY.
export type ProxySettings = { httpProxy?: string; httpsProxy?: string; noProxy?: string }

export function proxiesFor(baseUrl: string, env: ProxyEnv): ProxySettings | undefined {
  const url = new URL(baseUrl)
  if (isLoopback(url.hostname)) return undefined
  const noProxy = env.no_proxy ?? env.NO_PROXY
  if (url.protocol === 'https:') {
    const httpsProxy = env.https_proxy ?? env.HTTPS_PROXY
    return httpsProxy ? { httpsProxy, noProxy } : undefined
  }
  const httpProxy = env.http_proxy ?? env.HTTP_PROXY
  return httpProxy ? { httpProxy, noProxy } : undefined
}
