// The floor of a command that reads every page of members: a plain loop of node:http GETs on one
// keep-alive connection, page after page of PER_PAGE members of each chamber named up to the
// page meta.total ends on, each page parsed with JSON.parse and nothing written. No client can read the same pages faster.
// Usage: node fetch-floor.mjs BASE TOKEN QUERY CHAMBER... (QUERY: `&sort=name` or ``);
// prints the number of members read.
import http from 'node:http'

const PER_PAGE = 100
const [base, token, query, ...chambers] = process.argv.slice(2)
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })

function get(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
        const chunks = []
        response.on('data', (chunk) => chunks.push(chunk))
        response.on('end', () => {
          if (response.statusCode !== 200) reject(new Error(`GET ${url}: ${response.statusCode}`))
          else resolve(JSON.parse(Buffer.concat(chunks).toString()))
        })
      })
      .on('error', reject)
  })
}

let read = 0
for (const chamber of chambers) {
  for (let page = 1; ; page++) {
    const { data, meta } = await get(
      `${base}/chambers/${chamber}/members?per_page=${PER_PAGE}&page=${page}${query}`,
    )
    read += data.length
    // The pages the total asks for, as a client that reads meta stops.
    if (data.length === 0 || page * PER_PAGE >= meta.total) break
  }
}
agent.destroy()
console.log(read)
