// A raw TCP listener that speaks just enough HTTP/1.1 to read whole requests, then does what the
// test says with each: answer it, drop the connection (the request has fully arrived, so the
// server may have acted on it), or never answer. For failures no HTTP server would produce.
import { createServer } from 'node:net'
import type { AddressInfo, Socket } from 'node:net'

export type RawRequest = { method: string; path: string; headers: string; body: string }

export type RawAction =
  { status: number; body: unknown; headers?: Record<string, string> } | 'drop' | 'hang'

export type RawListener = {
  baseUrl(version?: string): string
  requests: RawRequest[]
  close(): Promise<void>
}

export async function startRawListener(
  decide: (request: RawRequest) => RawAction,
): Promise<RawListener> {
  const requests: RawRequest[] = []
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    let buffer = Buffer.alloc(0)
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk])
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n')
        if (end === -1) return
        const head = buffer.subarray(0, end).toString('latin1')
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0)
        if (buffer.length < end + 4 + length) return
        const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8')
        buffer = buffer.subarray(end + 4 + length)
        const [method = '', path = ''] = head.split(' ')
        const request = { method, path, headers: head, body }
        requests.push(request)
        const action = decide(request)
        if (action === 'drop') return void socket.destroy()
        if (action === 'hang') continue
        const text = JSON.stringify(action.body)
        const headers = Object.entries(action.headers ?? {})
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('')
        socket.write(
          `HTTP/1.1 ${action.status} X\r\ncontent-type: application/json\r\n${headers}` +
            `content-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
        )
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: (version = 'v2') => `http://127.0.0.1:${port}/${version}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
