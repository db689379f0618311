// The sandbox at volume, as ratios measured side by side in one run: one sandbox per size (1k,
// 100k and 1M members in the demo chamber ch_0001), each a `chamberctl sandbox --data` process,
// asked the same requests in turn so that machine noise hits all sizes alike. Targets (issue 11):
// at 1M, a first page, a filtered and sorted page, the next page deep into a list walked page by
// page, and one create take at most 2× their time at 1k;
// a bulk load keeps its rate; RSS ≤ 120 MB; a start on the 1M database under 1 s.
// Issue 34: the largest include (one page of 100 members and events) as fast at 1M as at 1k, a
// page asked for directly deep into the list (no walk: OFFSET) within 2× of page 1, and, while
// includes are being served, the p99 of another client's page requests under 50 ms at 1M.
// Needs a build (npm run build). BENCH_SIZES=1000,1000000 to choose sizes; the first is the base.
// BENCH_PART=stall fills only the largest size and runs only the stall measurement on it.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

const bin = fileURLToPath(new URL('../bin/chamberctl.cjs', import.meta.url))
const DEMO_MEMBERS = 260
const sizes = (process.env.BENCH_SIZES ?? '1000,100000,1000000').split(',').map(Number)
const rounds = Number(process.env.BENCH_RUNS ?? 60)
const BULK = 5000
const START_RUNS = 5
const BULK_CONCURRENCY = 8
const part = process.env.BENCH_PART ?? 'all'
// The stall measurement: a client asking for the largest include without pause, and the page
// requests timed meanwhile (one at a time, as a script's next request would come).
const STALL_SAMPLES = Number(process.env.BENCH_STALL_SAMPLES ?? 1000)
const LARGEST_INCLUDE = '/chambers/ch_0001?include=members,events&per_page=100'
const dir = mkdtempSync(join(tmpdir(), 'chamberctl-bench-sandbox-'))
const running = []

try {
  console.log(`sandbox at volume, Node ${process.versions.node}; members in ch_0001: ${sizes}`)
  for (const size of part === 'stall' ? sizes.slice(-1) : sizes) {
    const started = performance.now()
    const filler = await startSandbox(file(size), ['--demo-members', String(size - DEMO_MEMBERS)])
    await filler.stop()
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    console.log(`  filled ${size} members (--demo-members) in ${seconds} s`)
  }

  if (part === 'stall') {
    const sandbox = await startSandbox(file(sizes.at(-1)))
    sandbox.token = await fetchToken(sandbox.v2)
    await stall(sandbox, sizes.at(-1))
  } else await volume()
} finally {
  await Promise.all(running.map((sandbox) => sandbox.stop()))
  rmSync(dir, { recursive: true, force: true })
}

// The p99 of page requests from one client, alone and while another one asks for the
// largest include without pause (goal at 1M: under 50 ms).
async function stall(sandbox, size) {
  const page = '/chambers/ch_0001/members?page=2'
  const timed = async () => {
    const ms = []
    for (let i = 0; i < STALL_SAMPLES; i++) {
      const started = performance.now()
      await get(sandbox, page)
      ms.push(performance.now() - started)
    }
    return ms
  }
  const alone = await timed()
  let running = true
  let includes = 0
  const loader = (async () => {
    while (running) {
      await get(sandbox, LARGEST_INCLUDE)
      includes++
    }
  })()
  const loaded = await timed()
  running = false
  await loader
  console.log(
    `page requests at ${label(size)} members, ${STALL_SAMPLES} one at a time: alone p50 ${percentile(alone, 0.5).toFixed(2)} ms, p99 ${percentile(alone, 0.99).toFixed(2)} ms; while another client asked for ${LARGEST_INCLUDE} (${includes} answered): p50 ${percentile(loaded, 0.5).toFixed(2)} ms, p99 ${percentile(loaded, 0.99).toFixed(2)} ms (goal < 50 ms)`,
  )
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]
}

// The requests at each size side by side, the stall measurement, and the bulk load.
async function volume() {
  // Start-up on each database: from spawn to the printed base URLs, the sizes taking turns.
  const starts = sizes.map(() => [])
  for (let round = 0; round < START_RUNS; round++) {
    for (const [s, size] of sizes.entries()) {
      const started = performance.now()
      const sandbox = await startSandbox(file(size))
      starts[s].push(performance.now() - started)
      await sandbox.stop()
    }
  }

  const sandboxes = []
  for (const size of sizes) {
    const sandbox = await startSandbox(file(size))
    sandbox.size = size
    sandbox.token = await fetchToken(sandbox.v2)
    sandboxes.push(sandbox)
  }

  const requests = [
    // First in a round, after the last round's create: a new member sorted before its marks.
    { name: 'page 50% in by name, after a write', direct: 0.5, sort: '&sort=name' },
    { name: 'first page of members', path: '/chambers/ch_0001/members' },
    {
      name: 'filtered and sorted page',
      path: '/chambers/ch_0001/members?filter[status]=active&sort=name',
    },
    {
      name: 'filtered, sorted descending',
      path: '/chambers/ch_0001/members?filter[status]=pending&sort=-joined_at',
    },
    // What `--all` (or export --members) asks at each step deep into a list: the page after the
    // one it just read, 90% of the way through, by name.
    { name: 'next page, 90% into the list', walk: '&sort=name' },
    { name: 'include=members,events per_page=100', path: LARGEST_INCLUDE },
    // A page number asked for out of turn half way through (what a user's ?page=N does): the
    // first after a write (the member created below) starts at a mark moved past the new member.
    { name: 'page 50% in, first after a write', direct: 0.5 },
    { name: 'page 45% in, after that one', direct: 0.45 },
    // By name, the walk above has counted the list 90% deep since the write.
    { name: 'page 50% in by name', direct: 0.5, sort: '&sort=name' },
    { name: 'page 45% in by name', direct: 0.45, sort: '&sort=name' },
    // What the pages above compare with: the pages of 100 there, page 1 here.
    { name: 'page 1 of 100 members', path: '/chambers/ch_0001/members?per_page=100' },
    { name: 'one member create', create: true },
  ]
  const samples = requests.map(() => sandboxes.map(() => []))
  let serial = 0
  for (let round = -5; round < rounds; round++) {
    for (const [r, request] of requests.entries()) {
      for (const [s, sandbox] of sandboxes.entries()) {
        const deep = Math.floor((sandbox.size * 0.9) / 100)
        const walk = (n) => `/chambers/ch_0001/members?per_page=100&page=${n}${request.walk}`
        if (request.walk) await get(sandbox, walk(deep))
        const started = performance.now()
        const direct = () =>
          `/chambers/ch_0001/members?per_page=100&page=${Math.floor((sandbox.size * request.direct) / 100)}${request.sort ?? ''}`
        if (request.create) await createMember(sandbox, 'ch_0001', `bench.${serial++}`)
        else if (request.direct) await get(sandbox, direct())
        else await get(sandbox, request.walk ? walk(deep + 1) : request.path)
        // The first rounds warm caches and compile code; they are not counted.
        if (round >= 0) samples[r][s].push(performance.now() - started)
      }
    }
  }

  const header = ['request', ...sizes.map(label), `${label(sizes.at(-1))} / ${label(sizes[0])}`]
  const rows = requests.map((request, r) => {
    const medians = samples[r].map(median)
    return [request.name, ...medians.map((ms) => `${ms.toFixed(2)} ms`), ratio(medians)]
  })
  const rss = sandboxes.map((sandbox) => memory(sandbox.pid))
  rows.push([
    'RSS after the requests',
    ...rss.map((m) => `${m.rss} MB`),
    ratio(rss.map((m) => m.rss)),
  ])
  rows.push(['peak RSS', ...rss.map((m) => `${m.peak} MB`), ratio(rss.map((m) => m.peak))])
  const startMs = starts.map(median)
  rows.push([
    'start on the database',
    ...startMs.map((ms) => `${ms.toFixed(0)} ms`),
    ratio(startMs),
  ])
  printTable([header, ...rows])
  await stall(sandboxes.at(-1), sizes.at(-1))

  // Bulk: BULK creates into the largest chamber and as many into a new empty chamber of the same
  // sandbox, taking turns in slices so that both see the same machine.
  const largest = sandboxes.at(-1)
  const empty = await post(largest, '/chambers', { name: 'Bench Empty', type: 'hq', address: {} })
  const targets = [
    { name: `into ch_0001 (${label(largest.size)} members)`, chamber: 'ch_0001', ms: [] },
    { name: 'into an empty chamber', chamber: empty.id, ms: [] },
  ]
  const slice = 500
  for (let done = 0; done < BULK; done += slice) {
    for (const target of targets) {
      const started = performance.now()
      await bulk(largest, target.chamber, `bulk.${target.chamber}.${done}`, slice)
      target.ms.push(performance.now() - started)
    }
  }
  console.log(
    `bulk load through the API: ${BULK} creates each, ${BULK_CONCURRENCY} at a time, in slices of ${slice}`,
  )
  for (const target of targets) {
    const total = target.ms.reduce((a, b) => a + b, 0)
    const first = slice / (target.ms[0] / 1000)
    const last = slice / (target.ms.at(-1) / 1000)
    console.log(
      `  ${target.name.padEnd(30)} ${((BULK / total) * 1000).toFixed(0).padStart(6)}/s  (first slice ${first.toFixed(0)}/s, last ${last.toFixed(0)}/s)`,
    )
  }
  const [full, fresh] = targets.map((t) => t.ms.reduce((a, b) => a + b, 0))
  console.log(`  rate into ${label(largest.size)} / rate into empty: ${(fresh / full).toFixed(2)}`)
}

function file(size) {
  return join(dir, `members-${size}.db`)
}

function label(size) {
  return size >= 1e6 ? `${size / 1e6}M` : size >= 1e3 ? `${size / 1e3}k` : String(size)
}

async function startSandbox(data, extra = []) {
  const args = [bin, 'sandbox', '--port', '0', '--data', data, '-q', ...extra]
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  const v2 = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the sandbox on ${data} exited (${code})`)))
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /^v2 base URL:\s+(\S+)/.exec(line)
      if (match) resolve(match[1])
    })
  })
  child.removeAllListeners('exit')
  const sandbox = {
    v2,
    pid: child.pid,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = once(child, 'exit')
      child.kill('SIGTERM')
      await exited
    },
  }
  running.push(sandbox)
  return sandbox
}

async function get(sandbox, path) {
  const response = await fetch(sandbox.v2 + path, {
    headers: { authorization: `Bearer ${sandbox.token}` },
  })
  const body = await response.json()
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`)
  return body
}

async function post(sandbox, path, json) {
  const response = await fetch(sandbox.v2 + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  })
  const body = await response.json()
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${body.error}`)
  return body
}

function createMember(sandbox, chamber, name) {
  const member = { name, email: `${name}@bench.example.com`, membership_type: 'standard' }
  return post(sandbox, `/chambers/${chamber}/members`, member)
}

async function bulk(sandbox, chamber, prefix, count) {
  let next = 0
  const worker = async () => {
    while (next < count) await createMember(sandbox, chamber, `${prefix}.${next++}`)
  }
  await Promise.all(Array.from({ length: BULK_CONCURRENCY }, worker))
}

async function fetchToken(base) {
  const response = await fetch(`${base}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: 'sandbox-client',
      client_secret: 'sandbox-secret',
      grant_type: 'client_credentials',
    }),
  })
  return (await response.json()).access_token
}

function median(values) {
  return percentile(values, 0.5)
}

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)[1])
  return { rss: Math.round(kib('VmRSS') / 1024), peak: Math.round(kib('VmHWM') / 1024) }
}

function ratio(values) {
  return `${(values.at(-1) / values[0]).toFixed(2)}×`
}

function printTable(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => String(row[c]).length)))
  for (const row of rows) {
    console.log(
      '  ' + row.map((cell, c) => String(cell)[c ? 'padStart' : 'padEnd'](widths[c])).join('  '),
    )
  }
}
