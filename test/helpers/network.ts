// Loopback fixtures for the network cases of the built binary: HTTP and TLS servers that answer as
// a test says and record what reached them, a listener that accepts and never says a word, a
// CONNECT proxy and a forward proxy that record what passed through them. Every one listens on
// 127.0.0.1, port 0.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer as createHttpServer, request as httpRequest } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { connect, createServer as createNetServer } from 'node:net'
import type { AddressInfo, Socket } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

export type Seen = { method: string; url: string; headers: IncomingMessage['headers'] }

export type Fixture = {
  port: number
  // Requests (or CONNECT targets, or connections) that reached it, in order.
  seen: Seen[]
  // How many connections it accepted.
  connections(): number
  close(): Promise<void>
}

type Listener = Server | ReturnType<typeof createNetServer>

// Listens on 127.0.0.1 (port 0) and counts connections; closing ends every one still open.
async function serve(server: Listener, seen: Seen[]): Promise<Fixture> {
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
    seen,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void

// An HTTP server, or an HTTPS one with `tls`, answering with `handle`.
export async function startServer(
  handle: Handler,
  tls?: { key: string; cert: string },
): Promise<Fixture> {
  const seen: Seen[] = []
  const listener: Handler = (req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers })
    handle(req, res)
  }
  const server = tls ? createHttpsServer(tls, listener) : createHttpServer(listener)
  return serve(server, seen)
}

// Accepts connections and then does `speak` (nothing by default: a TLS client waits for a
// handshake that never comes); records each connection and the bytes it sent as `url`.
export async function startSilent(speak: (socket: Socket) => void = () => {}): Promise<Fixture> {
  const seen: Seen[] = []
  const server = createNetServer((socket) => {
    const entry = { method: 'CONNECTION', url: '', headers: {} }
    seen.push(entry)
    socket.on('data', (chunk) => (entry.url += chunk.toString('latin1')))
    speak(socket)
  })
  return serve(server, seen)
}

// A CONNECT proxy: records each tunnel's target and connects it to `route(target)` (a port on
// 127.0.0.1), so that a name no DNS knows can be reached only through it.
export async function startConnectProxy(route: (target: string) => number): Promise<Fixture> {
  const seen: Seen[] = []
  const server = createHttpServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers })
    res.writeHead(405).end()
  })
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push({ method: 'CONNECT', url: req.url ?? '', headers: req.headers })
    client.on('error', () => {})
    const upstream = connect(route(req.url ?? ''), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    upstream.on('error', () => client.destroy())
  })
  return serve(server, seen)
}

// A forward proxy for plain HTTP: records the absolute URL each request names and sends it on to
// `route(url)` (a port on 127.0.0.1).
export async function startForwardProxy(route: (url: URL) => number): Promise<Fixture> {
  const seen: Seen[] = []
  const server = createHttpServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers })
    const target = new URL(req.url ?? '/')
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: route(target),
        path: target.pathname + target.search,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  return serve(server, seen)
}

export type Certificate = { key: string; cert: string; certFile: string; remove(): void }

// A self-signed certificate for `names` (DNS names, and IP addresses), made with openssl now.
export function selfSigned(names: string[]): Certificate {
  const dir = mkdtempSync(path.join(tmpdir(), 'chamberctl-tls-'))
  const keyFile = path.join(dir, 'key.pem')
  const certFile = path.join(dir, 'cert.pem')
  const san = names.map((name) => (/^[\d.]+$/.test(name) ? `IP:${name}` : `DNS:${name}`))
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      `/CN=${names[0]}`,
      '-addext',
      `subjectAltName=${san.join(',')}`,
    ],
    { stdio: 'ignore' },
  )
  return {
    key: readFileSync(keyFile, 'utf8'),
    cert: readFileSync(certFile, 'utf8'),
    certFile,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

// A chamber list answer with `n` records.
export function listBody(n = 2): string {
  const data = Array.from({ length: n }, (_, i) => ({
    id: `ch_${i + 1}`,
    name: `Chamber ${i + 1}`,
  }))
  return JSON.stringify({ data, meta: { current_page: 1, per_page: 20, total: n } })
}

export function json(res: ServerResponse, body: string, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(body)
}
