// The bulk floor: what a bare node:http script does with the same file as
// `members add --from-file`: one keep-alive agent, 8 POSTs in flight, each answer read whole.
// Usage: node post-rows.mjs BASE_URL CHAMBER_ID TOKEN FILE.ndjson
import { readFileSync } from 'node:fs'
import http from 'node:http'

const [base, chamber, token, file] = process.argv.slice(2)
const rows = readFileSync(file, 'utf8').split('\n').filter(Boolean)
const url = new URL(`${base}/chambers/${chamber}/members`)
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 })
let next = 0
let failed = 0

function post(body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks = []
        res.on('data', (chunk) => chunks.push(chunk))
        res.on('end', () => {
          if (res.statusCode !== 201) failed++
          process.stdout.write(Buffer.concat(chunks))
          resolve()
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

async function worker() {
  while (next < rows.length) await post(rows[next++])
}
await Promise.all(Array.from({ length: 8 }, worker))
agent.destroy()
if (failed > 0) {
  process.stderr.write(`${failed} rows failed\n`)
  process.exitCode = 1
}
