// Conformance runs of the built CLI against a server's root (Prism's dynamic mock of the spec, a
// server we did not write, or Prism's validation proxy in front of the sandbox): every read
// command in every output format, export, and the write commands with their flags, on /v1 and
// /v2, for ROUNDS rounds. Prism checks each request against the document (and the proxy each answer),
// turning a violation into an error answer; any exit but 0 fails.
//   node scripts/conformance-run.mjs ROOT_URL ROUNDS CHAMBER_ID
// Client credentials come from CHAMBERCTL_CLIENT_ID/SECRET (Prism's mock accepts any). Run by
// scripts/conformance.sh, which starts the servers; needs a built dist/.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const [root, roundsArg = '20', chamber = 'chm_1'] = process.argv.slice(2)
if (!root) throw new Error('usage: conformance-run.mjs ROOT_URL ROUNDS CHAMBER_ID')
const ROUNDS = Number(roundsArg)
const BIN = fileURLToPath(new URL('../bin/chamberctl.cjs', import.meta.url))
const CONCURRENCY = 2

const FORMATS = [[], ['-o', 'table'], ['--json'], ['-o', 'ndjson'], ['-o', 'csv']]
// Each list once plain (one page) and once walking pages with --limit; the v2 ones with every
// filter and sort flag they have.
const READS = {
  v1: [
    ['chambers', 'list'],
    ['chambers', 'list', '--limit', '3', '--per-page', '2'],
    ['chambers', 'get', chamber],
    ['members', 'list', chamber, '--limit', '3', '--page', '2'],
  ],
  v2: [
    ['chambers', 'list', '--type', 'hq', '--status', 'active', '--sort', '-name'],
    ['chambers', 'list', '--limit', '3', '--per-page', '2'],
    ['chambers', 'get', chamber, '--include', 'members,events'],
    ['members', 'list', chamber, '--status', 'pending', '--sort', '-joined_at'],
    ['members', 'list', chamber, '--limit', '3', '--page', '2'],
    [
      'events',
      'list',
      chamber,
      '--status',
      'upcoming',
      '--from',
      '2024-01-01',
      '--to',
      '2030-12-31',
    ],
    ['events', 'list', chamber, '--limit', '3', '--per-page', '2'],
  ],
}
// export walks every page of chambers (and of each chamber's members): in its two formats, with
// and without --members, named and filtered.
const EXPORTS = {
  v1: [
    ['export', '--members'],
    ['export', chamber, '--json'],
  ],
  v2: [
    ['export', '--type', 'hq', '--status', 'active', '--members'],
    ['export', '--members', '--json'],
    ['export', chamber],
  ],
}
const WRITES = [
  [
    'chambers',
    'create',
    '--name',
    'Berlin',
    '--type',
    'hq',
    '--address-field',
    'city=Berlin',
    '--json',
  ],
  [
    'chambers',
    'create',
    '--name',
    'Potsdam',
    '--type',
    'subsidiary',
    '--hq-id',
    chamber,
    '--address',
    '{"city":"Potsdam","postal_code":"14467"}',
  ],
  [
    'members',
    'add',
    chamber,
    '--name',
    'Ada Lovelace',
    '--email',
    'ada@example.com',
    '--membership-type',
    'standard',
    '--phone',
    '+49 30 1234',
    '-o',
    'ndjson',
  ],
  [
    'members',
    'add',
    chamber,
    '--name',
    'Grace',
    '--email',
    'grace@example.com',
    '--membership-type',
    'gold',
  ],
]
const AUTH = [['auth', 'token']]

const jobs = []
for (let round = 1; round <= ROUNDS; round++) {
  for (const version of ['v1', 'v2']) {
    for (const args of READS[version])
      for (const format of FORMATS) jobs.push({ round, version, args: [...args, ...format] })
    for (const args of EXPORTS[version]) jobs.push({ round, version, args })
    for (const args of AUTH) jobs.push({ round, version, args })
  }
  for (const args of WRITES) jobs.push({ round, version: 'v2', args: [...args, '--yes'] })
}

const config = mkdtempSync(path.join(tmpdir(), 'chamberctl-conformance-'))
const run = ({ version, args }) =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        env: {
          PATH: process.env.PATH,
          CI: 'true',
          HOME: config,
          CHAMBERCTL_CONFIG_DIR: config,
          CHAMBERCTL_BASE_URL: `${root}/${version}`,
          CHAMBERCTL_CLIENT_ID: process.env.CHAMBERCTL_CLIENT_ID ?? 'conformance',
          CHAMBERCTL_CLIENT_SECRET: process.env.CHAMBERCTL_CLIENT_SECRET ?? 'conformance-secret',
        },
        timeout: 60_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? (error.code ?? 'killed') : 0, stdout, stderr }),
    )
  })

const failures = []
const counts = { v1: 0, v2: 0 }
let next = 0
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < jobs.length) {
      const job = jobs[next++]
      const result = await run(job)
      counts[job.version]++
      if (result.code !== 0) failures.push({ ...job, ...result })
    }
  }),
)
rmSync(config, { recursive: true, force: true })

for (const f of failures.slice(0, 20)) {
  console.error(
    `FAIL round ${f.round} /${f.version}: chamberctl ${f.args.join(' ')} → exit ${f.code}`,
  )
  console.error(`  ${f.stderr.trim().split('\n').slice(0, 3).join('\n  ')}`)
}
console.log(
  `conformance against ${root}: ${ROUNDS} rounds, ${jobs.length} runs (/v1 ${counts.v1}, /v2 ${counts.v2}), ${failures.length} failures`,
)
process.exitCode = failures.length ? 1 : 0
