// A TCP connection to a base URL's host and port, closed as soon as it is made: the cheap check
// `login` makes before it asks for a secret, so that a refused port is said first. Nothing is
// sent. Through a proxy the check is the proxy's to make, so none is made here.
import { connect } from 'node:net'
import { ApiError } from './errors.js'
import { MAX_TIMER_MS } from './undici.js'

export async function checkReachable(baseUrl: string, timeoutMs: number): Promise<void> {
  const url = new URL(baseUrl)
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
  // An IPv6 literal comes bracketed in a URL, and unbracketed to connect().
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  await new Promise<void>((resolve, reject) => {
    const socket = connect({ host, port })
    socket.setTimeout(Math.min(timeoutMs, MAX_TIMER_MS))
    socket.once('connect', () => {
      socket.destroy()
      resolve()
    })
    socket.once('timeout', () => {
      socket.destroy()
      reject(
        new ApiError(
          'timeout',
          `cannot reach ${url.host}: no connection within ${timeoutMs / 1000} s`,
        ),
      )
    })
    socket.once('error', (error) => {
      reject(
        new ApiError('connection_failed', `cannot reach ${url.host}: ${error.message}`, {
          cause: error,
        }),
      )
    })
  })
}
