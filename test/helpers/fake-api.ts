// The one fake API server of the tests: node:http (or https) on 127.0.0.1, port 0. It reads each
// request whole, logs it, and answers as the test's `answer` says: a JSON reply, a dropped
// connection, no answer at all, one written by hand, or on to a real server (`upstream`, a
// sandbox) so that a test can watch, hold back or count requests on their way. It grants a
// token at POST …/auth/token before the test's `answer` is asked (unless told otherwise); what
// the answer leaves, the upstream or a 404 answers. Held requests wait for the test (`Holder`),
// never for a clock.
import { request as httpRequest, createServer as createHttpServer } from 'node:http'
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo, Server as NetServer, Socket } from 'node:net'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'

export type FakeRequest = {
  method: string
  // The request target as sent: a path and query, or a whole URL for a forward proxy.
  path: string
  headers: IncomingHttpHeaders
  body: string
}

export type Reply =
  // JSON (a string body is sent as it is), 200 unless a status is given.
  | { status?: number; body?: unknown; headers?: Record<string, string> }
  // Closes the connection once the request has fully arrived (the server may have acted on it).
  | 'drop'
  // Never answers.
  | 'hang'
  // Sends the request on to the upstream.
  | 'forward'
  // Answers by hand.
  | ((res: ServerResponse) => void)

// Undefined: not this test's business (the upstream or a 404 answers it).
export type Answer = (request: FakeRequest) => Reply | undefined | Promise<Reply | undefined>

export type FakeApiOptions = {
  answer?: Answer
  // What POST …/auth/token answers (TOKEN_GRANT by default); false: `answer` sees token requests
  // too (the default with an upstream).
  token?: object | false
  // Where 'forward' sends a request: an origin, or one chosen for each request.
  upstream?: string | ((request: FakeRequest) => string)
  tls?: { key: string; cert: string }
  // Requests to count as open, from their arrival until their answer has been handed back.
  counts?: (request: FakeRequest) => boolean
}

export type FakeApi = {
  port: number
  // The origin; the API versions live under baseUrl(version).
  url: string
  baseUrl(version?: string): string
  // Every request read whole, in order.
  requests: FakeRequest[]
  // How many connections clients have opened.
  connections(): number
  // The most counted requests that were open at the same moment.
  maxOpen(): number
  close(): Promise<void>
}

const TOKEN_GRANT = { access_token: 'fake-token', token_type: 'Bearer', expires_in: 3600 }

const isTokenRequest = (request: FakeRequest) =>
  request.method === 'POST' && /\/auth\/token(\?|$)/.test(request.path)

// The client id a token request names.
const clientOf = (request: FakeRequest) =>
  String((JSON.parse(request.body || '{}') as { client_id?: unknown }).client_id)

type Listening = { port: number; connections(): number; close(): Promise<void> }

// Listens on 127.0.0.1, port 0, and counts connections; closing ends every one still open. For
// the few listeners that are not HTTP servers (see network.ts).
export async function listenLoopback(server: Server | NetServer): Promise<Listening> {
  const sockets = new Set<Socket>()
  let connections = 0
  server.on('connection', (socket: Socket) => {
    connections++
    sockets.add(socket)
    socket.on('error', () => {})
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

// The base URL of a port nothing listens on: a listener is started on a free port and closed.
export async function closedPortUrl(version = 'v2'): Promise<string> {
  const listening = await listenLoopback(createHttpServer())
  await listening.close()
  return `http://127.0.0.1:${listening.port}/${version}`
}

function forward(request: FakeRequest, origin: string, res: ServerResponse): void {
  const target = new URL(request.path, origin)
  const upstream = httpRequest(
    new URL(target.pathname + target.search, origin),
    { method: request.method, headers: request.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    },
  )
  upstream.on('error', () => res.destroy())
  upstream.end(request.body)
}

export async function startFakeApi(options: FakeApiOptions = {}): Promise<FakeApi> {
  const requests: FakeRequest[] = []
  const token = options.token ?? (options.upstream ? false : TOKEN_GRANT)
  let open = 0
  let max = 0

  const send = (request: FakeRequest, res: ServerResponse, reply: Reply | undefined) => {
    reply ??= options.upstream ? 'forward' : { status: 404, body: { error: 'not_found' } }
    if (reply === 'hang') return
    if (reply === 'drop') return void res.socket?.destroy()
    if (reply === 'forward') {
      const { upstream } = options
      if (!upstream) throw new Error('a fake API with no upstream cannot forward')
      return forward(request, typeof upstream === 'string' ? upstream : upstream(request), res)
    }
    if (typeof reply === 'function') return reply(res)
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {})
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers })
    res.end(text)
  }

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const request: FakeRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      requests.push(request)
      if (options.counts?.(request)) {
        max = Math.max(max, ++open)
        let settled = false
        const settle = () => {
          if (!settled) open--
          settled = true
        }
        res.once('finish', settle).once('close', settle)
      }
      const reply = token && isTokenRequest(request) ? { body: token } : options.answer?.(request)
      Promise.resolve(reply).then(
        (reply) => send(request, res, reply),
        (error: unknown) => res.destroy(error as Error),
      )
    })
  }
  const server = options.tls ? createHttpsServer(options.tls, handle) : createHttpServer(handle)
  const listening = await listenLoopback(server)
  const url = `${options.tls ? 'https' : 'http'}://127.0.0.1:${listening.port}`
  return {
    port: listening.port,
    url,
    baseUrl: (version = 'v2') => `${url}/${version}`,
    requests,
    connections: listening.connections,
    maxOpen: () => max,
    close: listening.close,
  }
}

// Things held back until the test lets them go, oldest first: requests on their way, token
// answers. What happens meanwhile is then up to the test, never to a clock.
export class Holder<T> {
  private queue: { item: T; go: () => void }[] = []
  private waiters: { count: number; resolve: () => void }[] = []

  // Resolves once `item` is released.
  hold(item: T): Promise<void> {
    return new Promise<void>((go) => {
      this.queue.push({ item, go })
      this.notify()
    })
  }

  held(): T[] {
    return this.queue.map((entry) => entry.item)
  }

  // Resolves once at least `count` things are held.
  whenHeld(count: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiters.push({ count, resolve })
      this.notify()
    })
  }

  // Lets the oldest `count` go (all by default).
  release(count = this.queue.length): void {
    for (const entry of this.queue.splice(0, count)) entry.go()
  }

  private notify(): void {
    const ready = this.waiters.filter((waiter) => this.queue.length >= waiter.count)
    this.waiters = this.waiters.filter((waiter) => this.queue.length < waiter.count)
    for (const waiter of ready) waiter.resolve()
  }
}

// A fake API of its own for each test (or one for the whole file): started before, closed after.
export function useFakeApi(options: FakeApiOptions = {}, per: 'test' | 'file' = 'test') {
  let api: FakeApi | undefined
  ;(per === 'test' ? beforeEach : beforeAll)(async () => {
    api = await startFakeApi(options)
  })
  ;(per === 'test' ? afterEach : afterAll)(async () => {
    await api?.close()
    api = undefined
  })
  return (): FakeApi => {
    if (!api) throw new Error(`the fake API is started before each ${per}`)
    return api
  }
}

export type TokenServer = FakeApi & {
  // Token requests so far, by client id, in order.
  tokenRequests(): string[]
  // The token answers of these clients are held back until released.
  hold(...clients: string[]): void
  // Resolves once at least `count` token answers are held back.
  whenHeld(count: number): Promise<void>
  // Sends every held answer, and holds no more.
  release(): void
}

// For the tests of token refreshes across processes: tokens of each client's own (`tok-<client>-
// <n>`, the n-th token request to arrive), every other request answered with an empty list, and
// the token answers of the clients a test names held back until it releases them, so that what
// happens meanwhile (a logout, a new login, other processes) is up to the test.
export async function startTokenServer(): Promise<TokenServer> {
  let holding = new Set<string>()
  let issued = 0
  const holder = new Holder<string>()
  const api = await startFakeApi({
    token: false,
    answer: async (request) => {
      if (!isTokenRequest(request)) return { body: { data: [] } }
      const client = clientOf(request)
      const access_token = `tok-${client}-${++issued}`
      if (holding.has(client)) await holder.hold(client)
      return { body: { access_token, token_type: 'Bearer', expires_in: 3600 } }
    },
  })
  return {
    ...api,
    tokenRequests: () => api.requests.filter(isTokenRequest).map(clientOf),
    hold: (...clients) => void (holding = new Set(clients)),
    whenHeld: (count) => holder.whenHeld(count),
    release() {
      holding = new Set()
      holder.release()
    },
  }
}
