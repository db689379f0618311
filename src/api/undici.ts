// The parts of undici a CLI uses: a keep-alive Agent, and one exchange read whole. undici's index
// also loads fetch, WebSocket, caches and their dependencies, which cost a one-request process
// ~60 ms of start-up for nothing; the Agent module is all a dispatch needs. The exchange is a
// dispatch with a handler that gathers the answer, rather than undici's `request`: that one
// wraps every answer in a stream and every deadline in an AbortSignal, which a bulk run of
// thousands of rows pays for in CPU per row. The package version is pinned by the lockfile, and
// the unit tests exercise this path with MockAgent.
import type { IncomingHttpHeaders } from 'node:http'
import type { Dispatcher } from 'undici'
import AgentModule from 'undici/lib/dispatcher/agent.js'

export const Agent = AgentModule

export type RequestOptions = {
  method: Dispatcher.HttpMethod
  headers: Record<string, string>
  body?: string
  // The whole exchange, from now until the last byte of the answer.
  timeoutMs: number
}

export type Response = { statusCode: number; headers: IncomingHttpHeaders; text: string }

// What a request that ran out of time is rejected with.
export class RequestTimeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`)
    this.name = 'RequestTimeout'
  }
}

// The answer as text, decoded as undici's body.text() does (UTF-8, a byte order mark dropped).
export function request(
  dispatcher: Dispatcher,
  url: URL,
  options: RequestOptions,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let statusCode = 0
    let headers: IncomingHttpHeaders = {}
    let controller: Dispatcher.DispatchController | undefined
    let timedOut: RequestTimeout | undefined
    // Settles at once on time-out, even while the request waits for a connection; a request
    // not yet started is then stopped as it starts, one started is aborted.
    const timer = setTimeout(() => {
      timedOut = new RequestTimeout(options.timeoutMs)
      controller?.abort(timedOut)
      reject(timedOut)
    }, options.timeoutMs)
    const fail = (error: Error) => {
      clearTimeout(timer)
      reject(timedOut ?? error)
    }
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        controller = started
        if (timedOut) started.abort(timedOut)
      },
      onResponseStart(_, status, answerHeaders) {
        statusCode = status
        headers = answerHeaders
      },
      onResponseData(_, chunk) {
        chunks.push(chunk)
      },
      onResponseEnd() {
        clearTimeout(timer)
        resolve({ statusCode, headers, text: utf8Text(chunks) })
      },
      onResponseError(_, error) {
        fail(error)
      },
    }
    try {
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: url.pathname + url.search,
          method: options.method,
          headers: options.headers,
          body: options.body,
        },
        handler,
      )
    } catch (error) {
      fail(error as Error)
    }
  })
}

function utf8Text(chunks: Buffer[]): string {
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
  return bytes.toString('utf8', bom ? 3 : 0)
}
