// A pass-through HTTP proxy in front of a sandbox, for tests that watch or steer requests on the
// wire: recording headers, counting requests in flight, holding some back until the test says.
import { createServer, request as httpRequest } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Sandbox } from '../../src/sandbox/server.js'

export type ProxyOptions = {
  // Requests to count as open, from their arrival until their answer has been handed back, so a
  // client that keeps N requests in flight is never seen with more than N.
  counts?: (method: string, url: string) => boolean
  // Sees every request first; it is sent on when `forward` is called (at once by default), or
  // answered by the test on `res`.
  intercept?: (req: IncomingMessage, forward: () => void, res: ServerResponse) => void
}

export type Proxy = {
  // The origin; the API versions live under baseUrl(version).
  url: string
  baseUrl(version: 'v1' | 'v2'): string
  // The most counted requests that were open at the same moment.
  maxOpen(): number
  // How many connections clients have opened to the proxy.
  connections(): number
  close(): Promise<void>
}

export async function startProxy(target: Sandbox, options: ProxyOptions = {}): Promise<Proxy> {
  let open = 0
  let max = 0
  const server = createServer((req, res) => {
    if (options.counts?.(req.method ?? 'GET', req.url ?? '/')) {
      max = Math.max(max, ++open)
      let settled = false
      const settle = () => {
        if (!settled) open--
        settled = true
      }
      res.once('finish', settle).once('close', settle)
    }
    const forward = () => {
      const upstream = httpRequest(
        `${target.url}${req.url ?? '/'}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        },
      )
      upstream.on('error', () => res.destroy())
      req.pipe(upstream)
    }
    if (options.intercept) options.intercept(req, forward, res)
    else forward()
  })
  let connections = 0
  server.on('connection', () => connections++)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    baseUrl: (version) => `${url}/${version}`,
    maxOpen: () => max,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
