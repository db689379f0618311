// A loopback server that rate-limits creates as a real API does: a token bucket of `rate`
// requests a second (holding at most a second's worth), and a 429 past it, with `Retry-After: 1`
// or without it. It knows one chamber and counts every member created by e-mail, so the bench can
// check that each row was created exactly once.
import http from 'node:http'

export const CHAMBER = 'ch_rate'

export async function startRateLimited({ rate, retryAfter }) {
  const created = new Map()
  let limited = 0
  let tokens = rate
  let last = performance.now()
  const take = () => {
    const now = performance.now()
    tokens = Math.min(rate, tokens + ((now - last) / 1000) * rate)
    last = now
    if (tokens < 1) return false
    tokens--
    return true
  }
  const server = http.createServer((request, response) => {
    const chunks = []
    request.on('data', (chunk) => chunks.push(chunk))
    request.on('end', () => {
      const send = (status, body, headers = {}) => {
        const text = JSON.stringify(body)
        response.writeHead(status, { 'content-type': 'application/json', ...headers })
        response.end(text)
      }
      const path = new URL(request.url, 'http://x').pathname
      if (request.method === 'GET' && path === `/v2/chambers/${CHAMBER}`) {
        return send(200, { id: CHAMBER, name: 'Rate', type: 'hq' })
      }
      if (request.method !== 'POST' || path !== `/v2/chambers/${CHAMBER}/members`) {
        return send(404, { error: 'not_found' })
      }
      if (!take()) {
        limited++
        return send(429, { error: 'rate_limited' }, retryAfter ? { 'retry-after': '1' } : {})
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      created.set(body.email, (created.get(body.email) ?? 0) + 1)
      send(201, { id: `mb_${created.size}`, chamber_id: CHAMBER, ...body })
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    baseUrl: `http://127.0.0.1:${server.address().port}/v2`,
    // Rows created, rows created more than once, and the 429 answers given.
    counts: () => ({
      created: created.size,
      twice: [...created.values()].filter((n) => n > 1).length,
      limited,
    }),
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}
