// `npm run bench`: every goal of issue 14 as a ratio to its floor, measured side by side in one
// run on the Node that runs this script (the project's, via npm). The cases of a row take turns,
// in a new order each round, so machine noise hits them alike; only the ratios are worth
// comparing between runs.
//
// Rows: start-up without a request (`--version` vs `node -e 0`); one GET (`chambers list --json`,
// token from the environment or from a stored profile, vs a bare node:http script sending the
// same GET, and what undici alone costs on the same GET: bench/undici-get.mjs; `--jq '.[0].id'`
// against `--json`, issue 33); the same two for the single executable of this machine (release/,
// `npm run package`; BENCH_BINARY names another), measured in the same rounds; bulk (`members add
// --from-file` 5,000 rows vs a node:http keep-alive script at 8 in flight, with autocannon's
// figure against the same sandbox as the server's ceiling); memory
// (`members list --all -o ndjson`, `-o yaml` and `export --members` peak RSS at 100k records vs
// at 1k).
//
// A rate-limited server (bench/rate-limited.mjs, 200 creates a second, with and without
// Retry-After): the same 5,000 rows must end in one run, each created once, in at most 1.25x the
// bucket's ideal time, with 429 answers to at most 5% of the rows.
//
// Issue 33's whole-directory commands at 1k and 1M members: bench/million.mjs.
//
// BENCH_RUNS (start-up samples per case, default 30) and BENCH_BULK_RUNS (default 3) trade time
// for noise. BENCH_ONLY (a comma list of startup, bulk, memory, ratelimit, million; default all)
// runs only those rows, for quicker iterations on one of them. BENCH_ONLY=npm runs the npm
// channel's rows (RELEASING.md), which no default run includes: the bundle on this Node against a
// launcher that starts the single executable, and against the executable alone.
import autocannon from 'autocannon'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { buildCli } from '../scripts/build.mjs'
import { BUNDLE_PLUGINS } from '../scripts/release/bundle.mjs'
import { downloadedHostNode } from '../scripts/release/package.mjs'
import { million } from './million.mjs'
import { CHAMBER, startRateLimited } from './rate-limited.mjs'

const node = process.execPath
const here = (file) => fileURLToPath(new URL(file, import.meta.url))
const bin = here('../bin/chamberctl.cjs')
const usagePreload = here('./usage.mjs')
const postRows = here('./post-rows.mjs')
const runs = Number(process.env.BENCH_RUNS ?? 30)
const bulkRuns = Number(process.env.BENCH_BULK_RUNS ?? 3)
const BULK_ROWS = 5_000
const SMALL_LIST = 1_000
const BIG_LIST = 100_000
// The rate-limited server's bucket: creates a second.
const RATE = 200
const binary =
  process.env.BENCH_BINARY ?? here(`../release/chamberctl-${process.platform}-${process.arch}`)
const only = new Set((process.env.BENCH_ONLY ?? 'startup,bulk,memory,ratelimit,million').split(','))

const work = mkdtempSync(join(tmpdir(), 'chamberctl-bench-'))
// The developer's own CHAMBERCTL_* settings must not steer the measured commands.
const baseEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.startsWith('CHAMBERCTL_')),
)
// The npm bin's code cache and the keyring addon a binary writes out go there too.
const env = {
  ...baseEnv,
  CHAMBERCTL_CONFIG_DIR: join(work, 'config'),
  XDG_CACHE_HOME: join(work, 'cache'),
}
const sandboxes = []
const rows = []

try {
  await buildCli()
  const server = await startSandbox([])
  const token = await fetchToken(server)
  const tokenEnv = { ...env, CHAMBERCTL_BASE_URL: server, CHAMBERCTL_TOKEN: token }
  login(server)
  console.log(`Node ${process.versions.node}; ${runs} start-up samples, ${bulkRuns} bulk runs\n`)
  if (only.has('startup')) {
    startup(server, token, tokenEnv, await bundle(here('./undici-get.mjs'), 'undici-get.mjs'))
  }
  if (only.has('npm')) npmChannel(tokenEnv)
  if (only.has('bulk')) await bulk(server, token, tokenEnv)
  if (only.has('memory')) {
    const listed = await startSandbox(['--data', await writeListData(join(work, 'lists.db'))])
    memory(listed, await fetchToken(listed))
    yamlMemory(listed, await fetchToken(listed))
  }
  if (only.has('ratelimit')) await rateLimited()
  if (only.has('million')) {
    const lent = { node, bin, env, work, usagePreload, bundle, startSandbox, fetchToken }
    await million({ ...lent, median, shuffler, rows })
  }
  printTable()
} finally {
  // Each sandbox removes its files as it stops: the directory is removed after that.
  await Promise.all(
    sandboxes.map(
      (sandbox) =>
        sandbox.exitCode === null &&
        new Promise((resolve) => sandbox.once('exit', resolve).kill('SIGTERM')),
    ),
  )
  rmSync(work, { recursive: true, force: true })
}

// A bench script that imports chamberctl's sources, bundled as the CLI is.
async function bundle(entry, name) {
  const outfile = join(work, name)
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22.13',
    minify: true,
    plugins: BUNDLE_PLUGINS,
    logLevel: 'warning',
  })
  return outfile
}

function startup(base, token, tokenEnv, undiciGet) {
  const get = `require('node:http').get(${JSON.stringify(`${base}/chambers`)}, { headers: { authorization: 'Bearer ${token}' } }, (r) => r.pipe(process.stdout))`
  const version = { args: [bin, '--version'] }
  const help = { args: [bin, 'chambers', '--help'] }
  const bare = { args: ['-e', '0'] }
  const oneShot = { args: ['-e', get] }
  const undiciOnly = {
    args: [undiciGet, `${base}/chambers`, token],
    env: { ...env, NODE_COMPILE_CACHE: join(work, 'compile-cache') },
  }
  const listEnv = { args: [bin, 'chambers', 'list', '--json'], env: tokenEnv }
  const listProfile = { args: [bin, 'chambers', 'list', '--json'], env }
  const listJq = { args: [bin, 'chambers', 'list', '--jq', '.[0].id'], env: tokenEnv }
  const cases = [bare, version, help, oneShot, undiciOnly, listEnv, listProfile, listJq]
  // The single executable, if one was built: started directly, not by this Node.
  const haveBinary = existsSync(binary)
  const binaryVersion = { command: binary, args: ['--version'] }
  const binaryList = { command: binary, args: ['chambers', 'list', '--json'], env: tokenEnv }
  // The Node the binary is made of (not this one), started the same way: what the binary's own
  // start adds to it. No goal; the goal's floor is this Node's `node -e 0`.
  const binaryNode = haveBinary && !process.env.BENCH_BINARY ? downloadedHostNode() : undefined
  const binaryBare = binaryNode && { command: binaryNode.file, args: ['-e', '0'] }
  if (haveBinary) cases.push(binaryVersion, binaryList, ...(binaryBare ? [binaryBare] : []))
  else console.log(`no ${binary}: the binary's rows need \`npm run package\` first\n`)
  sample(cases)
  row('--version', version, 'node -e 0', bare, { max: 1.2 })
  if (haveBinary) {
    // No goal: the snapshot that makes a request fast is read by every start (bench/README.md).
    row('binary --version', binaryVersion, 'node -e 0', bare, undefined)
    if (binaryBare) {
      const name = `node ${binaryNode.version} -e 0`
      row('  the same, against its own Node', binaryVersion, name, binaryBare, undefined)
    }
    row('binary chambers list --json', binaryList, 'node:http GET', oneShot, { max: 1.35 })
  }
  row('chambers --help', help, 'node -e 0', bare, undefined)
  // No goal: the part of the one-request rows that chamberctl's own code cannot remove.
  row('  undici alone, the same GET', undiciOnly, 'node:http GET', oneShot, undefined)
  row('chambers list --json, env token', listEnv, 'node:http GET', oneShot, { max: 1.6 })
  row('chambers list --json, profile', listProfile, 'node:http GET', oneShot, { max: 1.6 })
  // Issue 33: --jq as cheap as --json on one page (jq's WebAssembly compiled on every run).
  row("chambers list --jq '.[0].id'", listJq, 'chambers list --json', listEnv, { max: 1.15 })
}

// The npm channel: what `npm install -g chamberctl` could run on each command. The bundle on the
// user's Node (what the package ships), a Node launcher that starts the per-platform binary (what
// an optional-dependency layout runs under --ignore-scripts, pnpm's default and yarn, bun), and the
// binary alone (what only esbuild's install-time swap of the bin would give).
function npmChannel(tokenEnv) {
  if (!existsSync(binary)) {
    console.log(`no ${binary}: the npm rows need \`npm run package\` first\n`)
    return
  }
  const launcher = here('./launcher.cjs')
  const groups = [
    ['--version', ['--version'], env],
    ['chambers list --json, loopback sandbox', ['chambers', 'list', '--json'], tokenEnv],
    ['chambers list --sandbox --json', ['chambers', 'list', '--sandbox', '--json'], env],
  ].map(([what, args, childEnv]) => ({
    what,
    bundle: { args: [bin, ...args], env: childEnv },
    launcher: { args: [launcher, binary, ...args], env: childEnv },
    alone: { command: binary, args, env: childEnv },
  }))
  sample(groups.flatMap((g) => [g.bundle, g.launcher, g.alone]))
  for (const g of groups) {
    row(`npm: launcher + binary, ${g.what}`, g.launcher, 'bundle', g.bundle, undefined)
    row('  binary alone (an install-time swap)', g.alone, 'bundle', g.bundle, undefined)
  }
}

// Times every case `runs` times, after one run each that warms the file and compile caches.
function sample(cases) {
  for (const c of cases) {
    time(c)
    c.samples = []
  }
  // A new order each round, from a fixed seed: in one order, a case always followed the same one
  // and took whatever that one left behind alone (the binary's --version followed jq's request:
  // 1.30x its floor in that order, 1.16-1.24x in 60-80 shuffled rounds of the same binary).
  const shuffle = shuffler(0x5eed)
  for (let i = 0; i < runs; i++) for (const c of shuffle(cases)) c.samples.push(time(c))
}

function ms(c) {
  return median(c.samples)
}

function row(what, c, floorName, floor, goal) {
  rows.push({
    what,
    value: `${ms(c).toFixed(0)} ms`,
    floor: `${floorName} ${ms(floor).toFixed(0)} ms`,
    ratio: ms(c) / ms(floor),
    goal,
  })
}

// The bulk rows, 5,000 members as NDJSON.
function rowsFile() {
  const file = join(work, 'rows.ndjson')
  writeFileSync(
    file,
    Array.from({ length: BULK_ROWS }, (_, i) =>
      JSON.stringify({
        name: `Bench Member ${i}`,
        email: `m${i}@bench.example`,
        membership_type: 'standard',
      }),
    ).join('\n') + '\n',
  )
  return file
}

async function bulk(base, token, tokenEnv) {
  const file = rowsFile()
  const cli = { rate: [], cpu: [] }
  const script = { rate: [], cpu: [] }
  const ceiling = []
  // Each run fills a chamber of its own: the same e-mails again would be refused as duplicates.
  for (let i = 0; i < bulkRuns; i++) {
    measureBulk(script, [postRows, base, await createChamber(base, token), token, file], env)
    measureBulk(
      cli,
      [bin, 'members', 'add', await createChamber(base, token), '--from-file', file, '-q'],
      tokenEnv,
    )
    ceiling.push(await loadGenerator(base, await createChamber(base, token), token))
  }
  const rate = (m) => median(m.rate)
  const cpuPerRow = (m) => median(m.cpu) / BULK_ROWS
  rows.push({
    what: `members add --from-file, ${BULK_ROWS.toLocaleString('en')} rows`,
    value: `${rate(cli).toFixed(0)} rows/s`,
    floor: `node:http 8 in flight ${rate(script).toFixed(0)} rows/s`,
    ratio: rate(cli) / rate(script),
    goal: { min: 0.85 },
  })
  rows.push({
    what: '  CPU per row (ms)',
    value: cpuPerRow(cli).toFixed(3),
    floor: `node:http ${cpuPerRow(script).toFixed(3)}`,
    ratio: cpuPerRow(cli) / cpuPerRow(script),
  })
  rows.push({
    what: '  server ceiling: autocannon, 8 connections',
    value: `${median(ceiling).toFixed(0)} rows/s`,
    floor: `node:http ${rate(script).toFixed(0)} rows/s`,
    ratio: median(ceiling) / rate(script),
  })
}

// One run of the 5,000 rows against the rate-limited server, with and without Retry-After.
async function rateLimited() {
  const file = rowsFile()
  const ideal = BULK_ROWS / RATE
  for (const retryAfter of [true, false]) {
    const server = await startRateLimited({ rate: RATE, retryAfter })
    const started = performance.now()
    const child = spawn(node, [bin, 'members', 'add', CHAMBER, '--from-file', file, '-q'], {
      env: {
        ...env,
        CHAMBERCTL_CONFIG_DIR: join(work, `config-rate-${retryAfter}`),
        CHAMBERCTL_BASE_URL: server.baseUrl,
        CHAMBERCTL_TOKEN: 'bench',
      },
      stdio: 'ignore',
    })
    const code = await new Promise((resolve) => child.on('exit', resolve))
    const seconds = (performance.now() - started) / 1000
    await server.close()
    const { created, twice, limited } = server.counts()
    // A run that did not create every row once is not the goal's, whatever its time.
    const whole = code === 0 && created === BULK_ROWS && twice === 0
    const outcome = whole ? '' : `; exit ${code}, ${created} created, ${twice} twice`
    const variant = retryAfter ? 'Retry-After: 1' : 'no Retry-After'
    rows.push({
      what: `members add, ${RATE}/s bucket, ${variant}`,
      value: `${seconds.toFixed(1)} s`,
      floor: `ideal ${ideal.toFixed(1)} s${outcome}`,
      ratio: whole ? seconds / ideal : Infinity,
      goal: { max: 1.25 },
    })
    rows.push({
      what: '  429 answers per row',
      value: `${limited} (${((100 * limited) / BULK_ROWS).toFixed(1)}%)`,
      floor: `${BULK_ROWS} rows`,
      ratio: limited / BULK_ROWS,
      goal: { max: 0.05 },
    })
  }
}

function measureBulk(into, args, childEnv) {
  const started = performance.now()
  const usage = run(args, childEnv)
  into.rate.push(BULK_ROWS / ((performance.now() - started) / 1000))
  into.cpu.push(usage.cpuMs)
}

function memory(base, token) {
  const childEnv = { ...env, CHAMBERCTL_BASE_URL: base, CHAMBERCTL_TOKEN: token }
  const list = (chamber) => [bin, 'members', 'list', chamber, '--all', '-o', 'ndjson']
  const jq = (chamber) => [...list(chamber), '--jq', '.email']
  // The YAML fixture of one chamber: 7 lines, then 3 a member (it has no phone).
  const fixture = (chamber) => [bin, 'export', chamber, '--members', '-q']
  // As JSON: 14 lines, then 5 a member.
  const json = (chamber) => [...fixture(chamber), '--json']
  const small = []
  const big = []
  const smallJq = []
  const bigJq = []
  const smallExport = []
  const bigExport = []
  const smallExportJson = []
  const bigExportJson = []
  for (let i = 0; i < Math.max(bulkRuns, 3); i++) {
    small.push(run(list('ch_small'), childEnv, SMALL_LIST).maxRssKiB)
    big.push(run(list('ch_big'), childEnv, BIG_LIST).maxRssKiB)
    smallJq.push(run(jq('ch_small'), childEnv, SMALL_LIST).maxRssKiB)
    bigJq.push(run(jq('ch_big'), childEnv, BIG_LIST).maxRssKiB)
    smallExport.push(run(fixture('ch_small'), childEnv, 7 + 3 * SMALL_LIST).maxRssKiB)
    bigExport.push(run(fixture('ch_big'), childEnv, 7 + 3 * BIG_LIST).maxRssKiB)
    smallExportJson.push(run(json('ch_small'), childEnv, 14 + 5 * SMALL_LIST).maxRssKiB)
    bigExportJson.push(run(json('ch_big'), childEnv, 14 + 5 * BIG_LIST).maxRssKiB)
  }
  const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`
  rows.push({
    what: `-o ndjson --all peak RSS, ${BIG_LIST / 1000}k records`,
    value: mib(median(big)),
    floor: `${SMALL_LIST / 1000}k records ${mib(median(small))}`,
    ratio: median(big) / median(small),
    goal: { max: 1.1 },
  })
  rows.push({
    what: `  with --jq .email, ${BIG_LIST / 1000}k records`,
    value: mib(median(bigJq)),
    floor: `${SMALL_LIST / 1000}k records ${mib(median(smallJq))}`,
    ratio: median(bigJq) / median(smallJq),
    goal: { max: 1.1 },
  })
  rows.push({
    what: `  --jq against none, ${BIG_LIST / 1000}k records`,
    value: mib(median(bigJq)),
    floor: `without --jq ${mib(median(big))}`,
    ratio: median(bigJq) / median(big),
  })
  rows.push({
    what: `export --members peak RSS, ${BIG_LIST / 1000}k members`,
    value: mib(median(bigExport)),
    floor: `${SMALL_LIST / 1000}k members ${mib(median(smallExport))}`,
    ratio: median(bigExport) / median(smallExport),
    goal: { max: 1.1 },
  })
  rows.push({
    what: `  with --json, ${BIG_LIST / 1000}k members`,
    value: mib(median(bigExportJson)),
    floor: `${SMALL_LIST / 1000}k members ${mib(median(smallExportJson))}`,
    ratio: median(bigExportJson) / median(smallExportJson),
    goal: { max: 1.1 },
  })
}

// `-o yaml --all`: a document a record (8 lines a member), `---` between them, written as pages
// come: flat like ndjson.
function yamlMemory(base, token) {
  const childEnv = { ...env, CHAMBERCTL_BASE_URL: base, CHAMBERCTL_TOKEN: token }
  const list = (chamber) => [bin, 'members', 'list', chamber, '--all', '-o', 'yaml']
  const small = []
  const big = []
  for (let i = 0; i < Math.max(bulkRuns, 3); i++) {
    small.push(run(list('ch_small'), childEnv, 9 * SMALL_LIST - 1).maxRssKiB)
    big.push(run(list('ch_big'), childEnv, 9 * BIG_LIST - 1).maxRssKiB)
  }
  rows.push({
    what: `-o yaml --all peak RSS, ${BIG_LIST / 1000}k records`,
    value: `${(median(big) / 1024).toFixed(1)} MiB`,
    floor: `${SMALL_LIST / 1000}k records ${(median(small) / 1024).toFixed(1)} MiB`,
    ratio: median(big) / median(small),
    goal: { max: 1.1 },
  })
}

// Runs a Node script to the end with the usage preload; `lines` checks how much it printed.
function run(args, childEnv, lines) {
  const usageFile = join(work, 'usage.json')
  const result = spawnSync(node, ['--import', usagePreload, ...args], {
    env: { ...childEnv, BENCH_USAGE_FILE: usageFile },
    stdio: ['ignore', lines === undefined ? 'ignore' : 'pipe', 'pipe'],
    maxBuffer: 1 << 30,
  })
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`)
  if (lines !== undefined) {
    const printed = result.stdout.toString().split('\n').length - 1
    if (printed !== lines)
      throw new Error(`${args.join(' ')} printed ${printed} lines, not ${lines}`)
  }
  return JSON.parse(readFileSync(usageFile, 'utf8'))
}

// Fisher-Yates with mulberry32: the same orders in every run of the bench.
function shuffler(seed) {
  let state = seed
  const random = () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
  return (items) => {
    const order = [...items]
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1))
      ;[order[i], order[j]] = [order[j], order[i]]
    }
    return order
  }
}

function time({ command = node, args, env: childEnv = env }) {
  const started = process.hrtime.bigint()
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], env: childEnv })
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`)
  return Number(process.hrtime.bigint() - started) / 1e6
}

async function loadGenerator(base, chamber, token) {
  let n = 0
  const started = performance.now()
  const result = await autocannon({
    url: `${base}/chambers/${chamber}/members`,
    connections: 8,
    amount: BULK_ROWS,
    requests: [
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({
            name: 'Load',
            email: `l${n++}@bench.example`,
            membership_type: 'standard',
          }),
        }),
      },
    ],
  })
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`autocannon: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  }
  return BULK_ROWS / ((performance.now() - started) / 1000)
}

function startSandbox(args) {
  const child = spawn(node, [bin, 'sandbox', '--port', '0', '--quiet', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  sandboxes.push(child)
  return new Promise((resolve, reject) => {
    child.once('exit', () => reject(new Error('the sandbox did not start')))
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /^v2 base URL:\s+(\S+)/.exec(line)
      if (match) resolve(match[1])
    })
  })
}

// A sandbox data file (the documented JSON format, which the sandbox reads) with one chamber of
// SMALL_LIST members and one of BIG_LIST.
// The memory rows' lists, ch_small and ch_big, in a sandbox database written by its own store.
async function writeListData(file) {
  const at = '2026-01-01T00:00:00.000Z'
  const chambers = ['ch_small', 'ch_big'].map((id) => ({
    id,
    name: id,
    type: 'hq',
    hq_id: null,
    address: { city: 'Bench' },
    status: 'active',
    created_at: at,
  }))
  const members = []
  for (const [chamber, count] of [
    ['ch_small', SMALL_LIST],
    ['ch_big', BIG_LIST],
  ]) {
    for (let i = 0; i < count; i++) {
      const n = members.length + 1
      members.push({
        id: `mb_${String(n).padStart(6, '0')}`,
        chamber_id: chamber,
        name: `Member ${n}`,
        email: `member${n}@bench.example`,
        phone: null,
        membership_type: 'standard',
        status: 'active',
        joined_at: at,
      })
    }
  }
  const dataset = `${file}.json`
  writeFileSync(dataset, JSON.stringify({ chambers, members, events: [] }))
  const writer = await bundle(
    fileURLToPath(new URL('./dataset.mjs', import.meta.url)),
    'dataset.mjs',
  )
  const written = spawnSync(node, [writer, file, dataset], { stdio: 'inherit' })
  if (written.status !== 0) throw new Error(`writing ${file} failed`)
  return file
}

function login(base) {
  const args = [bin, 'login', '--base-url', base, '--client-id', 'sandbox-client']
  const result = spawnSync(node, [...args, '--client-secret-stdin', '-q'], {
    input: 'sandbox-secret',
    env,
  })
  if (result.status !== 0) throw new Error(`login failed: ${result.stderr}`)
}

async function fetchToken(base) {
  const answer = await api(base, undefined, '/auth/token', {
    client_id: 'sandbox-client',
    client_secret: 'sandbox-secret',
    grant_type: 'client_credentials',
  })
  return answer.access_token
}

async function createChamber(base, token) {
  const name = `Bench ${Math.random().toString(36).slice(2)}`
  return (await api(base, token, '/chambers', { name, type: 'hq', address: { city: 'Bench' } })).id
}

// A fresh connection per call: a kept-alive one may be closed by the server between the phases.
function api(base, token, path, body) {
  const text = JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const request = http.request(
      base + path,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (response) => {
        let answer = ''
        response.setEncoding('utf8').on('data', (chunk) => (answer += chunk))
        response.on('end', () => {
          if (response.statusCode >= 300)
            reject(new Error(`POST ${path}: ${response.statusCode} ${answer}`))
          else resolve(JSON.parse(answer))
        })
      },
    )
    request.on('error', reject)
    request.end(text)
  })
}

function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
}

function printTable() {
  const cells = rows.map((r) => [
    r.what,
    r.value,
    r.floor,
    `${r.ratio.toFixed(2)}×`,
    r.goal === undefined ? '' : r.goal.max !== undefined ? `≤ ${r.goal.max}×` : `≥ ${r.goal.min}×`,
    r.goal === undefined
      ? ''
      : (r.goal.max !== undefined ? r.ratio <= r.goal.max : r.ratio >= r.goal.min)
        ? 'met'
        : 'MISSED',
  ])
  const head = ['row', 'chamberctl', 'floor', 'ratio', 'goal', '']
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)))
  for (const line of [head, ...cells]) {
    console.log(
      line
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
  }
}
