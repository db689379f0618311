// Start-up cost as ratios against a bare `node -e 0`, measured side by side in one run: the
// commands take turns, so machine noise hits all of them alike. Needs a build (npm run build).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const bin = fileURLToPath(new URL('../bin/chamberctl.js', import.meta.url))
const runs = Number(process.env.BENCH_RUNS ?? 30)

const cases = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'chamberctl --version', args: [bin, '--version'] },
  { name: 'chamberctl --help', args: [bin, '--help'] },
]

function time(args) {
  const started = process.hrtime.bigint()
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`)
  return Number(process.hrtime.bigint() - started) / 1e6
}

const samples = cases.map(() => [])
for (const c of cases) time(c.args) // warm the file cache and the compile cache
for (let i = 0; i < runs; i++) cases.forEach((c, j) => samples[j].push(time(c.args)))

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]
const floor = median(samples[0])
console.log(`start-up, median of ${runs} interleaved runs on Node ${process.versions.node}`)
cases.forEach((c, j) => {
  const ms = median(samples[j])
  console.log(`  ${c.name.padEnd(28)} ${ms.toFixed(1).padStart(7)} ms  ${(ms / floor).toFixed(2)}×`)
})
