// What the network tests of the built binary need besides the fake API (fake-api.ts): a listener
// that accepts and then says nothing (or what the test makes it say), and a CONNECT proxy. Both
// are raw sockets, as no HTTP server would behave so, on 127.0.0.1, port 0. And a self-signed
// certificate for the fake API's TLS.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import type { IncomingMessage } from 'node:http'
import { connect, createServer as createNetServer } from 'node:net'
import type { Socket } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { listenLoopback } from './fake-api.js'
import type { FakeApi, FakeRequest } from './fake-api.js'

// Requests (or CONNECT targets, or connections) that reached it, in order.
export type Fixture = Pick<FakeApi, 'port' | 'requests' | 'connections' | 'close'>

// Accepts connections and then does `speak` (nothing by default: a TLS client waits for a
// handshake that never comes); records each connection, the bytes it sent as `body`.
export async function startSilent(speak: (socket: Socket) => void = () => {}): Promise<Fixture> {
  const requests: FakeRequest[] = []
  const server = createNetServer((socket) => {
    const entry = { method: 'CONNECTION', path: '', headers: {}, body: '' }
    requests.push(entry)
    socket.on('data', (chunk) => (entry.body += chunk.toString('latin1')))
    speak(socket)
  })
  return { ...(await listenLoopback(server)), requests }
}

// A CONNECT proxy: records each tunnel's target and connects it to `route(target)` (a port on
// 127.0.0.1), so that a name no DNS knows can be reached only through it.
export async function startConnectProxy(route: (target: string) => number): Promise<Fixture> {
  const requests: FakeRequest[] = []
  const server = createHttpServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: '' })
    res.writeHead(405).end()
  })
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    requests.push({ method: 'CONNECT', path: req.url ?? '', headers: req.headers, body: '' })
    client.on('error', () => {})
    const upstream = connect(route(req.url ?? ''), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    upstream.on('error', () => client.destroy())
  })
  return { ...(await listenLoopback(server)), requests }
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
