// The built binary on the networks users are on (contract §1 network paragraph, §5): proxies and
// CAs from the environment, timeouts that bound connecting, bounded and decoded answers, and
// failure classes that say what happened. Every server is a real one on 127.0.0.1 (the fake API,
// or test/helpers/network.ts's raw sockets); each test asserts the exit code, the message, and
// what the server received.
import { readFileSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import type { ServerResponse } from 'node:http'
import path from 'node:path'
import { Readable } from 'node:stream'
import { createBrotliCompress, createGzip, deflateSync, gzipSync } from 'node:zlib'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useTempDirs } from '../helpers/sandbox.js'
import { lines, ndjson } from '../helpers/output.js'
import { startFakeApi } from '../helpers/fake-api.js'
import { listBody, selfSigned, startConnectProxy, startSilent } from '../helpers/network.js'
import type { Certificate, Fixture } from '../helpers/network.js'
import { runCli } from '../helpers/run-cli.js'
import type { CliResult } from '../helpers/run-cli.js'

const tempDir = useTempDirs('chamberctl-network-')
// A name no resolver knows: only a proxy can reach it.
const HOST = 'api.chamber.test'
const TOKEN_ANSWER = { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 }
const MiB = 1024 * 1024

let cert: Certificate
beforeAll(() => {
  cert = selfSigned([HOST, '127.0.0.1'])
})
afterAll(() => cert.remove())

const fixtures: Fixture[] = []
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((f) => f.close()))
})
async function open<F extends Fixture>(fixture: Promise<F>): Promise<F> {
  const made = await fixture
  fixtures.push(made)
  return made
}

// The token endpoint and a chamber list, as the real API answers them.
const serveApi = (tls?: Certificate) =>
  startFakeApi({ tls, token: TOKEN_ANSWER, answer: () => ({ body: listBody() }) })

// Runs the binary with `env` and nothing else of this process's; `ms` is how long it took.
async function run(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 30_000,
): Promise<CliResult & { ms: number }> {
  const started = performance.now()
  const result = await runCli(args, { configDir: tempDir(), env, timeoutMs })
  return { ...result, ms: performance.now() - started }
}

const token = (baseUrl: string) => ({ CHAMBERCTL_BASE_URL: baseUrl, CHAMBERCTL_TOKEN: 'tok' })
const client = (baseUrl: string) => ({
  CHAMBERCTL_BASE_URL: baseUrl,
  CHAMBERCTL_CLIENT_ID: 'ci',
  CHAMBERCTL_CLIENT_SECRET: 'secret',
})
const trusted = () => ({ NODE_EXTRA_CA_CERTS: cert.certFile })
const LIST = ['chambers', 'list']
const CREATE = [
  'chambers',
  'create',
  '--name',
  'Net Chamber',
  '--type',
  'hq',
  '--address-field',
  'city=Berlin',
]

function expectIds(stdout: string) {
  expect(lines(stdout).map((line) => line.split('\t')[0])).toEqual(['ch_1', 'ch_2'])
}

describe('CAs from NODE_EXTRA_CA_CERTS', () => {
  it('a server with a self-signed certificate is trusted through it', async () => {
    const server = await open(serveApi(cert))
    const url = `https://127.0.0.1:${server.port}/v2`
    const { code, stdout, stderr } = await run(LIST, { ...client(url), ...trusted() })
    expect(code, stderr).toBe(0)
    expectIds(stdout)
    expect(server.requests.map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /v2/auth/token',
      expect.stringMatching(/^GET \/v2\/chambers\?/),
    ])
  })

  it('and without it, cannot reach (exit 5): the handshake failed, nothing was sent', async () => {
    const server = await open(serveApi(cert))
    const url = `https://127.0.0.1:${server.port}/v2`
    const { code, stderr } = await run(LIST, token(url))
    expect(code).toBe(5)
    // What to do about it in chamberctl's words, not Node's advice to run Node with a flag.
    expect(stderr).toMatch(
      /^error: cannot reach 127\.0\.0\.1:\d+ after 3 attempts in \d+\.\d s: self-signed certificate \(DEPTH_ZERO_SELF_SIGNED_CERT\); to trust its CA, set NODE_EXTRA_CA_CERTS to its PEM file$/m,
    )
    expect(stderr).not.toContain('--use-system-ca')
    expect(server.requests).toEqual([])
  })
})

describe('proxies from the environment', () => {
  it('HTTPS_PROXY: CONNECT for https, the token request included', async () => {
    const server = await open(serveApi(cert))
    const proxy = await open(startConnectProxy(() => server.port))
    const { code, stdout, stderr } = await run(LIST, {
      ...client(`https://${HOST}/v2`),
      ...trusted(),
      HTTPS_PROXY: `http://127.0.0.1:${proxy.port}`,
    })
    expect(code, stderr).toBe(0)
    expectIds(stdout)
    expect(new Set(proxy.requests.map((s) => `${s.method} ${s.path}`))).toEqual(
      new Set([`CONNECT ${HOST}:443`]),
    )
    expect(server.requests.map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /v2/auth/token',
      expect.stringMatching(/^GET \/v2\/chambers\?/),
    ])
    expect(server.requests[1]!.headers.host).toBe(HOST)
  })

  it('http_proxy (lower case): a forward proxy for http', async () => {
    const server = await open(serveApi())
    const proxy = await open(startFakeApi({ upstream: server.url }))
    const { code, stdout, stderr } = await run(LIST, {
      ...client(`http://${HOST}/v2`),
      CHAMBERCTL_INSECURE_HTTP: '1',
      http_proxy: `http://127.0.0.1:${proxy.port}`,
    })
    expect(code, stderr).toBe(0)
    expectIds(stdout)
    expect(proxy.requests.map((s) => `${s.method} ${s.path}`)).toEqual([
      `POST http://${HOST}/v2/auth/token`,
      expect.stringMatching(new RegExp(`^GET http://${HOST}/v2/chambers\\?`)),
    ])
    expect(server.requests).toHaveLength(2)
  })

  it('NO_PROXY: its hosts are reached directly, the proxy sees nothing', async () => {
    // 0.0.0.0 is no loopback name (loopback is never proxied), yet it reaches the server here.
    const server = await open(serveApi())
    const proxy = await open(startFakeApi({ upstream: server.url }))
    const { code, stdout, stderr } = await run(LIST, {
      ...token(`http://0.0.0.0:${server.port}/v2`),
      CHAMBERCTL_INSECURE_HTTP: '1',
      HTTP_PROXY: `http://127.0.0.1:${proxy.port}`,
      NO_PROXY: 'example.org,0.0.0.0',
    })
    expect(code, stderr).toBe(0)
    expectIds(stdout)
    expect(proxy.requests).toEqual([])
    expect(server.requests).toHaveLength(1)
  })

  it('a proxy that refuses: cannot reach, naming the proxy (exit 5)', async () => {
    const down = await open(startSilent())
    await down.close()
    const { code, stderr } = await run(CREATE, {
      ...token(`https://${HOST}/v2`),
      HTTPS_PROXY: `http://127.0.0.1:${down.port}`,
    })
    expect(code).toBe(5)
    expect(stderr).toMatch(
      new RegExp(`^error: cannot reach ${HOST}: .*ECONNREFUSED 127\\.0\\.0\\.1:${down.port}`, 'm'),
    )
    expect(stderr).toContain('was not sent')
    expect(stderr).not.toContain('may have been applied')
  })
})

describe('--timeout bounds connecting and the TLS handshake', () => {
  // A TLS server that accepts the connection and never completes the handshake.
  const silent = async () => {
    const server = await open(startSilent())
    return { server, url: `https://127.0.0.1:${server.port}/v2` }
  }

  it('a GET: three attempts of 1 s, then cannot reach (exit 5)', async () => {
    const { server, url } = await silent()
    const { code, stderr, ms } = await run([...LIST, '--timeout', '1'], token(url))
    expect(code).toBe(5)
    expect(lines(stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^error: cannot reach 127\\.0\\.0\\.1:${server.port} after 3 attempts in \\d+\\.\\d s: no connection within 1 s$`,
        ),
      ),
    ])
    expect(server.requests).toHaveLength(3)
    // 3 × 1 s and two backoffs under a second: far from undici's own 10 s connect timeout.
    expect(ms).toBeLessThan(10_000)
  })

  it('a POST whose handshake never completed was not sent: exit 5, never "may have been applied"', async () => {
    const { server, url } = await silent()
    const { code, stderr, ms } = await run([...CREATE, '--timeout', '1'], token(url))
    expect(code).toBe(5)
    expect(lines(stderr)).toEqual([
      `error: cannot reach 127.0.0.1:${server.port}: no connection within 1 s (POST /v2/chambers was not sent)`,
    ])
    expect(server.requests).toHaveLength(1)
    expect(ms).toBeLessThan(10_000)
  })

  it('a bulk run whose connections never complete: every row failed (not sent), none unknown', async () => {
    // The chamber check is answered on the first connection (then closed); every later
    // connection is accepted and its handshake never answered.
    const server = await open(
      startFakeApi({
        tls: cert,
        answer: () => (res) => {
          res.writeHead(200, { 'content-type': 'application/json', connection: 'close' })
          res.end(JSON.stringify({ id: 'ch_1', name: 'One', type: 'hq' }))
        },
      }),
    )
    let piped = false
    const gate = await open(
      startSilent((socket) => {
        if (piped) return
        piped = true
        const upstream = connect(server.port, '127.0.0.1')
        upstream.on('error', () => socket.destroy())
        socket.pipe(upstream).pipe(socket)
      }),
    )
    const file = path.join(tempDir(), 'members.csv')
    writeFileSync(
      file,
      'name,email,membership_type\nAda,ada@example.com,standard\nBob,bob@example.com,standard\n',
    )
    const { code, stdout, stderr } = await run(
      ['members', 'add', 'ch_1', '--from-file', file, '-o', 'ndjson', '--timeout', '1'],
      { ...token(`https://127.0.0.1:${gate.port}/v2`), ...trusted() },
    )
    expect(code, stderr).toBe(1)
    const rows = ndjson<{ status: string; error?: { message?: string } }>(stdout)
    expect(rows.map((r) => r.status)).toEqual(['failed', 'failed'])
    expect(gate.connections()).toBe(3)
    expect(stderr).not.toContain('may have been applied')
    expect(JSON.stringify(rows)).toContain('was not sent')
    // The server saw the chamber check and no member.
    expect(server.requests.map((s) => s.method)).toEqual(['GET'])
  })

  it('--timeout 0 is no timeout, and a huge one works (it is capped, not overflowed)', async () => {
    const server = await open(serveApi())
    const url = `http://127.0.0.1:${server.port}/v2`
    for (const timeout of ['0', '99999999']) {
      const { code, stdout, stderr } = await run([...LIST, '--timeout', timeout], token(url))
      expect(code, stderr).toBe(0)
      expectIds(stdout)
    }
    expect(server.requests).toHaveLength(2)
  })

  it('a negative --timeout is a usage error', async () => {
    const { code, stderr } = await run([...LIST, '--timeout', '-1'], token('http://127.0.0.1:9/v2'))
    expect(code).toBe(2)
    expect(stderr).toContain('expected a number of seconds (0 for none)')
  })
})

// Runs the binary under a preload that writes its peak resident memory (VmHWM, in KiB) to a file
// as it exits.
async function runMeasured(args: string[], env: NodeJS.ProcessEnv) {
  const dir = tempDir()
  const preload = path.join(dir, 'peak.cjs')
  const out = path.join(dir, 'peak')
  writeFileSync(
    preload,
    `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, ` +
      `/VmHWM:\\s*(\\d+)/.exec(require('fs').readFileSync('/proc/self/status', 'utf8'))[1]))\n`,
  )
  const result = await run(args, { ...env, NODE_OPTIONS: `--require ${preload}` })
  return { ...result, peakMiB: Number(readFileSync(out, 'utf8')) / 1024 }
}

// 300 MB of a JSON string, streamed in 1 MiB chunks as the client reads them.
function endless(total = 300 * 1000 * 1000): Readable {
  const chunk = Buffer.alloc(MiB, 'a')
  let left = total
  return new Readable({
    read() {
      if (left <= 0) return this.push(null)
      const piece = left >= chunk.length ? chunk : chunk.subarray(0, left)
      left -= piece.length
      this.push(piece)
    },
  })
}

describe('answers are bounded at 64 MiB', () => {
  it.runIf(process.platform === 'linux')(
    'a 300 MB answer: exit 1 naming the limit, not retried, never held whole',
    async () => {
      const server = await open(
        startFakeApi({
          answer: () => (res) => {
            res.writeHead(200, { 'content-type': 'application/json' })
            endless().pipe(res)
          },
        }),
      )
      const url = `http://127.0.0.1:${server.port}/v2`
      const { code, stdout, stderr, peakMiB } = await runMeasured(LIST, token(url))
      expect(code).toBe(1)
      expect(stdout).toBe('')
      expect(lines(stderr)).toEqual([
        `error: the answer is larger than 64 MiB (from 127.0.0.1:${server.port}); reading stopped`,
      ])
      expect(server.requests).toHaveLength(1)
      // 64 MiB read and a Node process; a 300 MB answer held whole would be far more.
      expect(peakMiB).toBeLessThan(250)
    },
  )

  it('a content-length past the limit stops before the body', async () => {
    const server = await open(
      startFakeApi({
        answer: () => (res) => {
          res.writeHead(200, { 'content-length': String(300 * 1000 * 1000) })
          endless().pipe(res)
        },
      }),
    )
    const { code, stderr } = await run(LIST, token(`http://127.0.0.1:${server.port}/v2`))
    expect(code).toBe(1)
    expect(stderr).toMatch(/^error: the answer is larger than 64 MiB/m)
    expect(server.requests).toHaveLength(1)
  })

  it('the limit counts decoded bytes: a small gzip that unpacks past 64 MiB is exit 1', async () => {
    const bomb = gzipSync(Buffer.alloc(100 * MiB, ' '))
    expect(bomb.length).toBeLessThan(MiB)
    const server = await open(
      startFakeApi({
        answer: () => (res) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
          res.end(bomb)
        },
      }),
    )
    const { code, stderr } = await run(LIST, token(`http://127.0.0.1:${server.port}/v2`))
    expect(code).toBe(1)
    expect(stderr).toMatch(/^error: the answer is larger than 64 MiB/m)
    expect(server.requests).toHaveLength(1)
  })
})

describe('compressed answers', () => {
  const encoders: [string, (text: string, res: ServerResponse) => void][] = [
    ['gzip', (text, res) => Readable.from([text]).pipe(createGzip()).pipe(res)],
    ['deflate', (text, res) => res.end(deflateSync(text))],
    ['br', (text, res) => Readable.from([text]).pipe(createBrotliCompress()).pipe(res)],
  ]
  for (const [encoding, encode] of encoders) {
    it(`${encoding}: asked for and decoded`, async () => {
      const server = await open(
        startFakeApi({
          answer: () => (res) => {
            res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding })
            encode(listBody(), res)
          },
        }),
      )
      const { code, stdout, stderr } = await run(LIST, token(`http://127.0.0.1:${server.port}/v2`))
      expect(code, stderr).toBe(0)
      expectIds(stdout)
      expect(server.requests[0]!.headers['accept-encoding']).toBe('gzip, deflate, br')
    })
  }

  it('a body that does not decode as its encoding says: exit 1, saying so', async () => {
    const server = await open(
      startFakeApi({
        answer: () => (res) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
          res.end(listBody())
        },
      }),
    )
    const { code, stderr } = await run(LIST, token(`http://127.0.0.1:${server.port}/v2`))
    expect(code).toBe(1)
    expect(stderr).toMatch(/^error: the answer does not decode as gzip: /m)
  })
})

describe('failure classes: "cannot reach" only when no connection was made', () => {
  it('a server speaking another protocol: not an HTTP answer (exit 1), not retried', async () => {
    const server = await open(startSilent((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n')))
    const { code, stderr } = await run(LIST, token(`http://127.0.0.1:${server.port}/v2`))
    expect(code).toBe(1)
    expect(stderr).toMatch(/^error: not an HTTP answer from 127\.0\.0\.1:\d+: /m)
    expect(stderr).not.toContain('cannot reach')
    expect(server.requests).toHaveLength(1)
  })

  it('200 KB of headers: malformed headers (exit 1)', async () => {
    const server = await open(
      startFakeApi({
        answer: () => (res) => {
          res.writeHead(200, { 'x-padding': 'a'.repeat(200 * 1024) })
          res.end('{}')
        },
      }),
    )
    const { code, stderr } = await run(LIST, token(`http://127.0.0.1:${server.port}/v2`))
    expect(code).toBe(1)
    expect(stderr).toMatch(/^error: malformed headers from 127\.0\.0\.1:\d+: /m)
    expect(stderr).not.toContain('cannot reach')
  })

  it('a redirect names its Location and is not followed (exit 1)', async () => {
    const server = await open(
      startFakeApi({
        answer: () => (res) => {
          res.writeHead(301, { location: 'https://elsewhere.example/v2/chambers' }).end('{}')
        },
      }),
    )
    const { code, stderr } = await run(LIST, token(`http://127.0.0.1:${server.port}/v2`))
    expect(code).toBe(1)
    expect(stderr).toMatch(/HTTP 301 .*https:\/\/elsewhere\.example\/v2\/chambers/)
    expect(server.requests).toHaveLength(1)
  })

  it('a token with a line break is refused before sending (exit 1), not "cannot reach"', async () => {
    const server = await open(serveApi())
    const { code, stderr } = await run(LIST, {
      ...token(`http://127.0.0.1:${server.port}/v2`),
      CHAMBERCTL_TOKEN: 'tok\nen',
    })
    expect(code).toBe(1)
    expect(stderr).toMatch(/^error: cannot send GET \/v2\/chambers: /m)
    expect(server.requests).toEqual([])
  })
})
