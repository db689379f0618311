// The parts of undici a CLI uses: a keep-alive Agent (or undici's EnvHttpProxyAgent when the
// environment names a proxy, from proxy-agent.ts, loaded only then), and one exchange read
// whole. undici's index also loads fetch, WebSocket, caches and their dependencies, which cost a
// one-request process ~60 ms of start-up for nothing; the Agent module is all a dispatch needs.
// The exchange is a dispatch with a handler that gathers the answer, rather than undici's
// `request`: that one wraps every answer in a stream and every deadline in an AbortSignal, which
// a bulk run of thousands of rows pays for in CPU per row. The package version is pinned by the
// lockfile, and the unit tests exercise this path with MockAgent.
//
// The handler also bounds the answer (MAX_ANSWER_BYTES, counted after decoding, so a small
// compressed answer cannot unpack into gigabytes) and decodes gzip, deflate and br with node:zlib
// on the answers that use one. undici's decompress interceptor would do it, but it prints an
// ExperimentalWarning on stderr and wraps every request's handler, compressed or not.
import type { IncomingHttpHeaders } from 'node:http'
import type { Socket } from 'node:net'
import type { Transform } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import type { Dispatcher } from 'undici'
import buildConnector from 'undici/lib/core/connect.js'
import AgentModule from 'undici/lib/dispatcher/agent.js'
import { holdWasmBaseline } from '../v8-flags.js'

// The most an answer may hold once decoded; past it, reading stops.
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024
export const MAX_ANSWER_TEXT = '64 MiB'

// Node's timers take at most 2^31-1 ms (~24.8 days); a longer one fires at once.
export const MAX_TIMER_MS = 2 ** 31 - 1

// The most an answer's status line and headers may hold: Node's own default, which undici
// otherwise reads off node:http (http.maxHeaderSize) for every connection, loading Node's HTTP
// client and server for one number.
const MAX_HEADER_BYTES = 16 * 1024

export type RequestOptions = {
  method: Dispatcher.HttpMethod
  headers: Record<string, string>
  body?: string
  // The whole exchange, from now until the last byte of the answer, connecting included; 0 for
  // no limit.
  timeoutMs: number
}

export type Response = { statusCode: number; headers: IncomingHttpHeaders; text: string }

// What went wrong with an exchange that got no usable answer:
// - timeout: no (complete) answer in time;
// - too_large: the answer grew past MAX_ANSWER_BYTES;
// - not_http: what came back is not an HTTP/1.1 answer;
// - bad_headers: its headers are malformed or too large;
// - bad_encoding: its body does not decode as its content-encoding says;
// - invalid: the request could not be built (a header value undici refuses), nothing left;
// - network: the connection failed or was lost.
export type FailureKind =
  'timeout' | 'too_large' | 'not_http' | 'bad_headers' | 'bad_encoding' | 'invalid' | 'network'

export class ExchangeError extends Error {
  constructor(
    readonly kind: FailureKind,
    // Whether a connection was made and the request began to leave on it. False means no byte
    // of it reached the server: the connection or its TLS handshake never completed.
    readonly sent: boolean,
    message: string,
    cause?: unknown,
  ) {
    super(message, { cause })
    this.name = 'ExchangeError'
  }

  // The error code behind it (ECONNREFUSED, UND_ERR_CONNECT_TIMEOUT, HPE_INVALID_CONSTANT...).
  get code(): string | undefined {
    const cause = this.cause as { code?: unknown; cause?: { code?: unknown } } | undefined
    const code = cause?.code ?? cause?.cause?.code
    return typeof code === 'string' ? code : undefined
  }
}

// The answer as text, decoded as undici's body.text() does (UTF-8, a byte order mark dropped).
// Rejects only with an ExchangeError.
export function request(
  dispatcher: Dispatcher,
  url: URL,
  options: RequestOptions,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = []
    let size = 0
    let statusCode = 0
    let headers: IncomingHttpHeaders = {}
    let controller: Dispatcher.DispatchController | undefined
    // The answer's content-encoding and its decoder, made when its first byte comes.
    let encoding: string | undefined
    let decoder: Transform | undefined
    let settled = false
    const settle = (error?: ExchangeError, abort = true) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (!error) return resolve({ statusCode, headers, text: utf8Text(chunks, size) })
      chunks = []
      decoder?.destroy()
      // A request not yet started is stopped as it starts (onRequestStart), one started is
      // aborted, which ends its connection: nothing more of the answer is read.
      if (abort) controller?.abort(error)
      reject(error)
    }
    const sent = () => controller !== undefined
    const add = (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_ANSWER_BYTES) return settle(tooLarge())
      chunks.push(chunk)
    }
    const decode = (started: Dispatcher.DispatchController): Transform => {
      const stream = DECODERS[encoding!]!()
      stream.on('data', add)
      stream.on('drain', () => started.resume())
      stream.on('error', (error) =>
        settle(
          new ExchangeError(
            'bad_encoding',
            true,
            `the answer does not decode as ${encoding}: ${error.message}`,
            error,
          ),
        ),
      )
      stream.on('end', () => settle())
      return stream
    }
    const timeoutMs = Math.min(options.timeoutMs, MAX_TIMER_MS)
    // Settles at once on time-out, even while the request waits for a connection.
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            const within = `within ${timeoutMs / 1000} s`
            settle(new ExchangeError('timeout', sent(), `no answer ${within}`))
          }, timeoutMs)
        : undefined
    const handler: Dispatcher.DispatchHandler = {
      // undici calls this once the connection is ready, just before the request is written.
      onRequestStart(started) {
        controller = started
        if (settled) started.abort(new ExchangeError('timeout', true, 'abandoned'))
      },
      onResponseStart(_, status, answerHeaders) {
        statusCode = status
        headers = answerHeaders
        const coding = answerHeaders['content-encoding']
        if (coding === undefined) {
          if (Number(answerHeaders['content-length']) > MAX_ANSWER_BYTES) settle(tooLarge())
          return
        }
        encoding = String(coding).trim().toLowerCase()
        if (encoding === 'identity') encoding = undefined
        else if (!DECODERS[encoding]) {
          const said = `the answer is encoded as ${String(coding)}, which chamberctl cannot decode`
          return settle(new ExchangeError('bad_encoding', true, said))
        }
        // The headers now describe the decoded answer.
        delete headers['content-encoding']
        delete headers['content-length']
      },
      onResponseData(started, chunk) {
        if (settled) return
        if (!encoding) return add(chunk)
        decoder ??= decode(started)
        if (!decoder.write(chunk)) started.pause()
      },
      onResponseEnd() {
        // An encoded answer without a body (HEAD, 204) has nothing to decode.
        if (decoder) decoder.end()
        else settle()
      },
      onResponseError(_, error) {
        settle(classify(error, sent()), false)
      },
    }
    // undici reports every failure to the handler, a request it refuses to write included.
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
  })
}

// Called, not read, when the module loads: node:zlib is loaded only for an answer that uses it.
const DECODERS: Partial<Record<string, () => Transform>> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  deflate: () => createInflate(),
  br: () => createBrotliDecompress(),
}

function tooLarge(): ExchangeError {
  return new ExchangeError('too_large', true, `the answer is larger than ${MAX_ANSWER_TEXT}`)
}

// undici's failures: its HTTP parser's (an HTTPParserError, whose code undici leaves unset) and
// the header limit mean an answer came that is not HTTP or not well formed; a request undici
// refuses to write (a header value with a line break) left nothing; anything else is the
// network's.
function classify(error: Error, sent: boolean): ExchangeError {
  if (error instanceof ExchangeError) return error
  const code = (error as { code?: unknown }).code
  if (code === 'UND_ERR_HEADERS_OVERFLOW') {
    return new ExchangeError('bad_headers', true, `${error.message} (${code})`, error)
  }
  if (error.name === 'HTTPParserError') {
    const kind = /header/i.test(error.message) ? 'bad_headers' : 'not_http'
    return new ExchangeError(kind, true, error.message, error)
  }
  if (code === 'UND_ERR_INVALID_ARG')
    return new ExchangeError('invalid', false, error.message, error)
  return new ExchangeError('network', sent, error.message, error)
}

function utf8Text(chunks: Buffer[], size: number): string {
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
  return bytes.toString('utf8', bom ? 3 : 0)
}

// What the agents of a dispatcher share: connections kept alive, at most so many per origin,
// made by one connector (whose sockets destroy() ends while they are still being made), and how
// long making one may take.
export type AgentOptions = {
  keepAliveTimeout: number
  maxHeaderSize: number
  connections: number
  connect: buildConnector.connector
  connectTimeoutMs: number
}

// Makes the dispatcher of a client whose requests go through a proxy (proxy-agent.ts).
export type ProxyDispatcher = (agent: AgentOptions) => Dispatcher

export type DispatcherOptions = {
  // At most this many connections to the server, which should be the most requests in flight at
  // once: with no limit, undici opens a new connection for a request sent just as an answer
  // arrives, for it gives a connection back only one event loop turn after its answer, so 8
  // workers sending one request after another end up on 16 connections.
  connections: number
  // How long connecting (the TLS handshake included, a proxy's too) may take; 0 for no limit.
  connectTimeoutMs: number
  // When the environment names a proxy for the base URL (see proxiesFor).
  proxy?: ProxyDispatcher
}

export type HttpAgent = {
  dispatcher: Dispatcher
  // Ends every connection at once, those still being made included: by the time a command is
  // done, whatever is in flight was abandoned (an attempt that ran out of time), and undici's
  // close would wait for it, its connect timeout up to a second late.
  destroy(): Promise<void>
}

// A keep-alive Agent, or the proxy's dispatcher with the same limits.
export function createHttpAgent(options: DispatcherOptions): HttpAgent {
  const { connections, proxy } = options
  const connectTimeoutMs = Math.min(options.connectTimeoutMs, MAX_TIMER_MS)
  const connecting = new Set<Socket>()
  const undiciConnect = buildConnector({ timeout: connectTimeoutMs })
  // undici's connector returns the socket it is making (its types say void).
  const connect: buildConnector.connector = (connectOptions, callback) => {
    const socket = undiciConnect(connectOptions, (...result) => {
      connecting.delete(socket)
      // undici makes its HTTP parser in this callback, at its first connection.
      if (!result[0]) holdWasmBaseline()
      callback(...result)
    }) as unknown as Socket
    connecting.add(socket)
    return socket
  }
  const agent = { keepAliveTimeout: 10_000, maxHeaderSize: MAX_HEADER_BYTES, connections, connect }
  const dispatcher = proxy ? proxy({ ...agent, connectTimeoutMs }) : new AgentModule(agent)
  return {
    dispatcher,
    async destroy() {
      for (const socket of connecting) socket.destroy()
      await dispatcher.destroy(commandDone())
    },
  }
}

// What the connections end with (undici would make a ClientDestroyedError). Node reads the stack
// of the error a socket is destroyed with, and formatting a stack computes the line ends of each
// script in it: the whole bundle's 1.2 MB at the end of every command that sent a request (some
// 2 ms). Nobody sees this error, so its stack is set before anyone reads it.
function commandDone(): Error {
  const error = new Error('the command is done')
  error.stack = `Error: ${error.message}`
  return error
}
