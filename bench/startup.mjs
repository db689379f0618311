// Start-up cost as ratios, measured side by side in one run: the commands take turns, so machine
// noise hits all of them alike. Floors: `node -e 0` for commands that send nothing, a node:http
// one-shot of the same request for commands that send one. Needs a build (npm run build).
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

const bin = fileURLToPath(new URL('../bin/chamberctl.js', import.meta.url))
const runs = Number(process.env.BENCH_RUNS ?? 30)
const configDir = mkdtempSync(join(tmpdir(), 'chamberctl-bench-'))

const sandbox = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--quiet'], {
  stdio: ['ignore', 'pipe', 'inherit'],
})
const v2 = await new Promise((resolve, reject) => {
  sandbox.once('exit', () => reject(new Error('the sandbox did not start')))
  createInterface({ input: sandbox.stdout }).on('line', (line) => {
    const match = /^v2 base URL:\s+(\S+)/.exec(line)
    if (match) resolve(match[1])
  })
})

try {
  const token = await fetchToken(v2)
  const env = { ...process.env, CHAMBERCTL_CONFIG_DIR: configDir }
  const tokenEnv = { ...env, CHAMBERCTL_BASE_URL: v2, CHAMBERCTL_TOKEN: token }
  const login = spawnSync(
    process.execPath,
    [
      bin,
      'login',
      '--base-url',
      v2,
      '--client-id',
      'sandbox-client',
      '--client-secret-stdin',
      '-q',
    ],
    { input: 'sandbox-secret', env },
  )
  if (login.status !== 0) throw new Error(`login failed: ${login.stderr}`)
  const oneShot = `require('node:http').get(${JSON.stringify(`${v2}/chambers?per_page=1`)}, { headers: { authorization: 'Bearer ${token}' } }, (r) => r.pipe(process.stdout))`

  const groups = [
    {
      title: 'no request',
      cases: [
        { name: 'node -e 0', args: ['-e', '0'] },
        { name: 'chamberctl --version', args: [bin, '--version'] },
        { name: 'chamberctl chambers --help', args: [bin, 'chambers', '--help'] },
      ],
    },
    {
      title: 'one request (GET /chambers)',
      cases: [
        { name: 'node:http one-shot', args: ['-e', oneShot] },
        {
          name: 'chambers list (env token)',
          args: [bin, 'chambers', 'list', '--limit', '1'],
          env: tokenEnv,
        },
        { name: 'chambers list (profile)', args: [bin, 'chambers', 'list', '--limit', '1'], env },
      ],
    },
  ]
  console.log(`start-up, median of ${runs} interleaved runs on Node ${process.versions.node}`)
  for (const group of groups) {
    const samples = group.cases.map(() => [])
    for (const c of group.cases) time(c) // warm the file and compile caches
    for (let i = 0; i < runs; i++) group.cases.forEach((c, j) => samples[j].push(time(c)))
    const floor = median(samples[0])
    console.log(`${group.title}:`)
    group.cases.forEach((c, j) => {
      const ms = median(samples[j])
      console.log(
        `  ${c.name.padEnd(30)} ${ms.toFixed(1).padStart(7)} ms  ${(ms / floor).toFixed(2)}×`,
      )
    })
  }
} finally {
  sandbox.kill('SIGTERM')
  rmSync(configDir, { recursive: true, force: true })
}

function time({ args, env }) {
  const started = process.hrtime.bigint()
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env })
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`)
  return Number(process.hrtime.bigint() - started) / 1e6
}

function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
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
