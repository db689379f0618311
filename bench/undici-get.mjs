// The floor chamberctl's one-request rows cannot go below while HTTP goes through undici: the
// same GET as the node:http script, sent with the two undici modules chamberctl loads (an Agent
// and `request`, src/api/undici.ts). bench/run.mjs bundles it as chamberctl is bundled and runs
// it with the compile cache on. Usage: node undici-get.mjs URL TOKEN
import Agent from 'undici/lib/dispatcher/agent.js'
import apiRequest from 'undici/lib/api/api-request.js'

const [url, token] = process.argv.slice(2)
const { origin, pathname, search } = new URL(url)
const agent = new Agent()
const response = await apiRequest.call(agent, {
  origin,
  path: pathname + search,
  method: 'GET',
  headers: { authorization: `Bearer ${token}` },
})
process.stdout.write(await response.body.text())
await agent.close()
