// A loopback server for the tests of token refreshes across processes: it grants any client a
// token of its own (`tok-<client>-<n>`, the n-th token it issued), answers every other request with an empty
// list, and holds back the token answers of the clients a test names until it releases them, so
// that what happens meanwhile (a logout, a new login, other processes) is up to the test, never
// to a clock.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export type TokenServer = {
  baseUrl: string
  // Token requests so far, by client id, in order.
  tokenRequests: string[]
  // The token answers of these clients are held back until released.
  hold(...clients: string[]): void
  // Resolves once at least `count` token answers are held back.
  whenHeld(count: number): Promise<void>
  // Sends every held answer, and holds no more.
  release(): void
  close(): Promise<void>
}

export async function startTokenServer(): Promise<TokenServer> {
  const tokenRequests: string[] = []
  let issued = 0
  let holding = new Set<string>()
  let held: (() => void)[] = []
  let waiters: { count: number; resolve: () => void }[] = []
  const notify = () => {
    const ready = waiters.filter((waiter) => held.length >= waiter.count)
    waiters = waiters.filter((waiter) => held.length < waiter.count)
    for (const waiter of ready) waiter.resolve()
  }
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      const send = (value: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify(value))
      }
      if (!req.url?.endsWith('/auth/token')) return send({ data: [] })
      const client = String((JSON.parse(body) as { client_id?: unknown }).client_id)
      tokenRequests.push(client)
      const token = `tok-${client}-${++issued}`
      const answer = () => send({ access_token: token, token_type: 'Bearer', expires_in: 3600 })
      if (!holding.has(client)) return answer()
      held.push(answer)
      notify()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v2`,
    tokenRequests,
    hold: (...clients) => void (holding = new Set(clients)),
    whenHeld: (count) =>
      new Promise<void>((resolve) => {
        waiters.push({ count, resolve })
        notify()
      }),
    release() {
      holding = new Set()
      const answers = held
      held = []
      for (const answer of answers) answer()
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
