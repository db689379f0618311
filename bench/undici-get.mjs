// The floor chamberctl's one-request rows cannot go below while HTTP goes through undici: the
// same GET as the node:http script, sent by chamberctl's own undici exchange (src/api/undici.ts)
// and nothing else. bench/run.mjs bundles it as chamberctl is bundled and runs it with Node's
// compile cache on. Usage: node undici-get.mjs URL TOKEN
import { createHttpAgent, request } from '../src/api/undici.ts'

const [url, token] = process.argv.slice(2)
const agent = createHttpAgent({ connections: 1, connectTimeoutMs: 30_000 })
const response = await request(agent.dispatcher, new URL(url), {
  method: 'GET',
  headers: { authorization: `Bearer ${token}` },
  timeoutMs: 30_000,
})
process.stdout.write(response.text)
await agent.destroy()
