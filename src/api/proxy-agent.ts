// The dispatcher of a client whose requests go through a proxy: undici's EnvHttpProxyAgent, with
// the limits of undici.ts's Agent on each of its agents: CONNECT through HTTPS_PROXY for https,
// HTTP_PROXY as a forward proxy for http (`proxyTunnel: false`), NO_PROXY's hosts directly.
// Loaded only when the environment names a proxy for the base URL: its modules cost every other
// request command ~10 ms of start-up.
import connectApi from 'undici/lib/api/api-connect.js'
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js'
import PoolModule from 'undici/lib/dispatcher/pool.js'
import type { ProxySettings } from './proxy.js'
import type { ProxyDispatcher } from './undici.js'

export function proxyDispatcher(proxy: ProxySettings): ProxyDispatcher {
  return ({ connectTimeoutMs: timeout, ...agent }) =>
    new EnvHttpProxyAgent({
      ...agent,
      httpProxy: proxy.httpProxy ?? '',
      httpsProxy: proxy.httpsProxy ?? '',
      noProxy: proxy.noProxy ?? '',
      proxyTunnel: false,
      // The connection to the proxy (for CONNECT), the TLS handshake through its tunnel, and a
      // forward proxy's connections.
      // It sends the CONNECT with the dispatcher's `connect` method, which undici's index adds to
      // every dispatcher and this module, not loading the index, adds to this one.
      clientFactory: (origin: URL, opts: object) =>
        Object.assign(new PoolModule(origin, { ...opts, connect: agent.connect }), {
          connect: connectApi,
        }),
      requestTls: { timeout },
      proxyTls: { timeout },
      // A forward proxy's pool is made by this factory too, which is where the limit on its
      // connections comes from (undici would otherwise give it none).
      factory: (origin: URL | string, opts: object) =>
        new PoolModule(origin, { ...opts, connections: agent.connections }),
    })
}
