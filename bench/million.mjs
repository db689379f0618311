// Issue 33's million rows of `npm run bench` (BENCH_ONLY=million): the commands that read a whole
// directory, at 1,000 members, 100,000 and 1,000,000 (100 chambers, of 10 to 10,000), peak
// RSS at 1M against 1k (goal ≤ 1.3×) and records/s at 1M against the node:http floor
// (bench/fetch-floor.mjs: the same pages, parsed and dropped; goal ≥ 0.8×). Output goes to
// /dev/null; each case's first run, which is not counted, checks what it printed through a pipe.
// The cases take turns in a new order each round (BENCH_MILLION_RUNS rounds, default 3).
//
// The databases are filled by the sandbox's own store (bench/fill.mjs) in the bench's work
// directory, served by `chamberctl sandbox --data`, counted through the API, and removed with it.
import { spawn, spawnSync } from 'node:child_process'
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const CHAMBERS = 100
// BENCH_MILLION_MEMBERS: another large size (100000 for a quick look). 100k between 1k and 1M:
// there a process has compiled its hot code already, so 100k against 1M is growth alone.
const BIG = Number(process.env.BENCH_MILLION_MEMBERS ?? 1_000_000)
const MIDDLE = 100_000
const SIZES = [1_000, ...(BIG > MIDDLE ? [MIDDLE] : []), BIG]
const RUNS = Number(process.env.BENCH_MILLION_RUNS ?? 3)
const floorScript = fileURLToPath(new URL('./fetch-floor.mjs', import.meta.url))
// The first chamber: 10 members at 1k, 10,000 at 1M.
const FIRST = 'ch_0001'
const EVERY = Array.from({ length: CHAMBERS }, (_, c) => `ch_${String(c + 1).padStart(4, '0')}`)

// What is measured. `args` after `chamberctl`, or
// made from the directory (`dir.fixture(changes)`: its export, with that many changes planted);
// `chambers` and `query`: the pages it reads, which the floor reads too; `lines(members)`: what it
// prints, checked on its first run; `exit`: its exit code (0). `members list` reads one chamber,
// not all: a loop of 100 processes is not one command, and the first chamber, 10 members at 1k,
// is 10,000 at 1M.
const COMMANDS = [
  {
    what: 'export --members',
    args: ['export', '--members', '-q'],
    chambers: EVERY,
    query: '&sort=name',
    // YAML: `chambers:`, 7 lines a chamber (with `members:`), 4 a member, 3 without a phone
    // (a demo member's i % 4 === 3).
    lines: (members) => 1 + 7 * CHAMBERS + 4 * members - CHAMBERS * Math.floor(members / 400),
  },
  {
    what: `members list ${FIRST} --all -o ndjson`,
    args: ['members', 'list', FIRST, '--all', '-o', 'ndjson'],
    chambers: [FIRST],
    query: '',
    lines: (members) => members / CHAMBERS,
  },
  {
    what: 'report members -o ndjson',
    args: ['report', 'members', '-o', 'ndjson', '-q'],
    chambers: EVERY,
    query: '',
    lines: (members) => members,
  },
  {
    what: 'diff EXPORT --members, its own export',
    args: (dir) => ['diff', dir.fixture(0), '--members', '-q'],
    chambers: EVERY,
    query: '&sort=name',
    lines: () => 0,
  },
  {
    what: 'diff --members, 100 changes planted',
    args: (dir) => ['diff', dir.fixture(PLANTED), '--members', '-q'],
    chambers: EVERY,
    query: '&sort=name',
    // One line a difference: exactly the changes planted.
    lines: () => PLANTED,
    exit: 1,
  },
]
// Changes planted in a fixture, a third of each kind: a member only on the server (taken out), a
// field that differs (membership_type), a member only in the fixture (one added).
const PLANTED = 100

// `bench`: what bench/run.mjs lends (its processes' environment, work directory, sandboxes,
// bundler, sampling helpers); the rows go to its table.
export async function million(bench) {
  const { node, bin, env, work, bundle, startSandbox, fetchToken, median, shuffler, rows } = bench
  const filler = await bundle(fileURLToPath(new URL('./fill.mjs', import.meta.url)), 'fill.mjs')
  const dirs = []
  for (const members of SIZES) {
    const file = join(work, `million-${members}.db`)
    const started = performance.now()
    const filled = spawnSync(node, [filler, file, CHAMBERS, members / CHAMBERS], {
      stdio: 'inherit',
    })
    if (filled.status !== 0) throw new Error(`filling ${file} failed`)
    const fillSeconds = (performance.now() - started) / 1000
    const base = await startSandbox(['--data', file])
    const token = await fetchToken(base)
    await checkCount(base, token, members)
    const dir = { members, fillSeconds, base, token }
    dir.fixture = fixtures(bench, dir)
    dirs.push(dir)
  }
  const [small, big] = [dirs[0], dirs.at(-1)]
  rows.push({
    what: `fill ${label(big.members)} members, 100 chambers (bench/fill.mjs)`,
    value: `${big.fillSeconds.toFixed(1)} s`,
    floor: `${label(small.members)} ${small.fillSeconds.toFixed(1)} s`,
    // Time per member, against the small fill's (which is mostly starting a process).
    ratio: big.fillSeconds / big.members / (small.fillSeconds / small.members),
  })

  const cases = COMMANDS.flatMap((command) => [
    ...dirs.map((dir) => ({
      command,
      dir,
      args: [bin, ...(typeof command.args === 'function' ? command.args(dir) : command.args)],
      env: { ...env, CHAMBERCTL_BASE_URL: dir.base, CHAMBERCTL_TOKEN: dir.token },
      records: (dir.members / CHAMBERS) * command.chambers.length,
      lines: command.lines?.(dir.members),
    })),
    {
      command,
      floor: true,
      args: [floorScript, big.base, big.token, command.query, ...command.chambers],
      env,
      records: (big.members / CHAMBERS) * command.chambers.length,
    },
  ])
  const run = (c, check) => measure(bench, c, check)
  for (const c of cases) {
    c.samples = []
    await run(c, true)
  }
  const shuffle = shuffler(0x33)
  for (let i = 0; i < RUNS; i++) for (const c of shuffle(cases)) c.samples.push(await run(c))

  const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`
  const rate = (c) => c.records / (median(c.samples.map((s) => s.ms)) / 1000)
  const rss = (c) => median(c.samples.map((s) => s.maxRssKiB))
  for (const command of COMMANDS) {
    const [atSmall, ...rest] = cases.filter((c) => c.command === command)
    const [atMiddle, atBig, floor] = rest.length === 3 ? rest : [undefined, ...rest]
    rows.push({
      what: `${command.what}, peak RSS at ${label(big.members)}`,
      value: mib(rss(atBig)),
      floor: `at ${label(small.members)} ${mib(rss(atSmall))}`,
      ratio: rss(atBig) / rss(atSmall),
      goal: { max: 1.3 },
    })
    if (atMiddle) {
      rows.push({
        what: `  peak RSS at ${label(big.members)} against ${label(MIDDLE)}`,
        value: mib(rss(atBig)),
        floor: `at ${label(MIDDLE)} ${mib(rss(atMiddle))}`,
        ratio: rss(atBig) / rss(atMiddle),
      })
    }
    rows.push({
      what: `  records/s at ${label(big.members)} (${atBig.records.toLocaleString('en')})`,
      value: `${rate(atBig).toFixed(0)}/s`,
      floor: `node:http ${rate(floor).toFixed(0)}/s, ${mib(rss(floor))}`,
      ratio: rate(atBig) / rate(floor),
      goal: { min: 0.8 },
    })
  }
}

// Every chamber and every member is there, as the API counts them.
async function checkCount(base, token, members) {
  const total = async (path) => {
    const response = await fetch(`${base}${path}`, {
      headers: { authorization: `Bearer ${token}` },
    })
    return (await response.json()).meta.total
  }
  const chambers = await total('/chambers?per_page=1')
  let counted = 0
  for (const id of EVERY) counted += await total(`/chambers/${id}/members?per_page=1`)
  if (chambers !== CHAMBERS || counted !== members) {
    throw new Error(`the API counts ${chambers} chambers, ${counted} members, not ${members}`)
  }
}

// One run to the end: its time, and its peak RSS from the usage preload. `check`: through a pipe,
// counting the lines printed (the floor prints the members it read), not to /dev/null.
async function measure({ node, usagePreload, work }, c, check = false) {
  const usageFile = join(work, 'usage.json')
  const out = check ? 'pipe' : openSync('/dev/null', 'w')
  const started = performance.now()
  const child = spawn(node, ['--import', usagePreload, ...c.args], {
    env: { ...c.env, BENCH_USAGE_FILE: usageFile },
    stdio: ['ignore', out, 'pipe'],
  })
  let lines = 0
  let printed = ''
  child.stdout?.on('data', (chunk) => {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++
    if (c.floor) printed += chunk
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const code = await new Promise((resolve) => child.on('close', resolve))
  if (!check) closeSync(out)
  const ms = performance.now() - started
  if (code !== (c.floor ? 0 : (c.command.exit ?? 0))) {
    throw new Error(`${c.args.join(' ')} exited ${code}: ${stderr}`)
  }
  const expected = c.floor ? c.records : c.lines
  const got = c.floor ? Number(printed) : lines
  if (check && expected !== undefined && got !== expected) {
    throw new Error(
      `${c.args.join(' ')} printed ${got} ${c.floor ? 'records' : 'lines'}, not ${expected}`,
    )
  }
  return { ms, ...JSON.parse(readFileSync(usageFile, 'utf8')) }
}

// `fixture(changes)`: the path of the directory's export (YAML), with `changes` planted in it;
// each made once, when a command first asks for it.
function fixtures({ node, bin, work }, dir) {
  let exported
  const made = new Set()
  return (changes) => {
    const file = join(work, `export-${dir.members}-${changes}.yaml`)
    if (made.has(changes)) return file
    if (exported === undefined) {
      const env = { ...process.env, CHAMBERCTL_BASE_URL: dir.base, CHAMBERCTL_TOKEN: dir.token }
      const result = spawnSync(node, [bin, 'export', '--members', '-q'], {
        env,
        maxBuffer: 1 << 30,
      })
      if (result.status !== 0) throw new Error(`export failed: ${result.stderr}`)
      exported = result.stdout.toString()
    }
    writeFileSync(file, plant(exported, changes))
    made.add(changes)
    return file
  }
}

// The fixture with `changes` members, spread over it, taken out, changed or followed by a new one.
function plant(yaml, changes) {
  const lines = yaml.split('\n')
  const starts = lines.flatMap((line, i) => (line.startsWith('      - name: ') ? [i] : []))
  const picked = new Set(
    Array.from({ length: changes }, (_, k) => starts[Math.floor((k * starts.length) / changes)]),
  )
  const out = []
  let k = 0
  let kind
  for (const [i, line] of lines.entries()) {
    if (picked.has(i)) kind = k++ % 3
    else if (line.startsWith('      - ') || !line.startsWith('        ')) kind = undefined
    if (kind === 0) continue
    if (kind === 1 && line.startsWith('        membership_type: ')) out.push(`${line}-planted`)
    else out.push(line)
    // After the member's last line: a new member of the same chamber.
    if (kind === 2 && line.startsWith('        membership_type: ')) {
      out.push(`      - name: Planted ${k}`, `        email: planted.${k}@planted.example`)
      out.push('        membership_type: standard')
    }
  }
  return out.join('\n')
}

function label(size) {
  return size >= 1e6 ? `${size / 1e6}M` : `${size / 1e3}k`
}
