// A tour of every command as a person at a terminal runs them (lists, records, help and topics,
// prompts, a bulk run with failures, errors, auth) in tmux at 40, 60, 80 and 120 columns against
// the sandbox, read from the transcript as the terminal shows it: no line wider than the terminal,
// no id, e-mail, URL or path cut, no table cell cut while the table has room to spare, no raw
// Markdown where it is rendered, and no pager that waits for a key under TERM=dumb. One tmux
// session per width runs the whole script, so the tour costs one CLI start per command.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { credentialsEnv, openSandbox } from '../helpers/sandbox.js'
import type { SandboxFixture } from '../helpers/sandbox.js'
import { CLI } from '../helpers/run-cli.js'
import { cutTokens, cutWithRoom, rawMarkdown, tablesIn, tooWide } from '../helpers/screen-checks.js'
import type { Known } from '../helpers/screen-checks.js'
import { SandboxReader } from '../helpers/session.js'
import { HAVE_TMUX, startTmuxShell } from '../helpers/tmux.js'
import type { TmuxSession } from '../helpers/tmux.js'

const WIDTHS = [40, 60, 80, 120] as const
const TIMEOUT = 300_000

// What a step prints: messages and tables (every check), help (rendered by the help code), a
// table with --wide (wider than the terminal by request), or data in a machine format (JSON: lines
// as long as their values).
type Kind = 'text' | 'help' | 'wide' | 'data'
// Keys for a prompt: what to wait for on the screen, then what to type (a tmux key name in <>).
type Answer = [RegExp, ...string[]]
type Step = { name: string; command: string; kind?: Kind; answers?: Answer[] }

function q(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`
}

// Every command of the tour, in order. `$AUTH` is a second config directory, where the auth
// steps log in; every other step uses the sandbox's credentials from the environment.
function tourSteps(dir: string, fixture: SandboxFixture): Step[] {
  const bulk = path.join(dir, 'bulk.csv')
  const fresh = path.join(dir, 'fresh.csv')
  const many = path.join(dir, 'many.csv')
  const login = (more = '') =>
    `printf '%s' ${q(fixture.sandbox.credentials.clientSecret)} | ` +
    `CHAMBERCTL_CONFIG_DIR="$AUTH" cc login --base-url ${q(fixture.v2)} --client-id ` +
    `${q(fixture.sandbox.credentials.clientId)} --client-secret-stdin ${more}`
  const asProfile = 'env -u CHAMBERCTL_BASE_URL -u CHAMBERCTL_CLIENT_ID -u CHAMBERCTL_CLIENT_SECRET'
  return [
    // Prompts first, answered as they come (the test watches the screen only for them).
    {
      name: 'chambers create, prompted',
      command: 'cc chambers create',
      answers: [
        [/^\? Name/, 'Tour Chamber of Commerce and Industry of the Northern Districts', '<Enter>'],
        [/hq \(headquarters\)/, '<Enter>'],
        [/^\? Street/, '<Enter>'],
        [/^\? City/, 'Erfurt', '<Enter>'],
        [/^\? Postal code/, '<Enter>'],
        [/^\? Country/, '<Enter>'],
        [/^\? Create this chamber\?/, 'y', '<Enter>'],
      ],
    },
    {
      name: 'members add, prompted',
      command: 'cc members add ch_0002',
      answers: [
        [/^\? Name/, 'Prompted Person', '<Enter>'],
        [/^\? E-mail/, 'prompted.person@tour.example.com', '<Enter>'],
        [/^\? Phone/, '<Enter>'],
        [/^\? Membership type/, '<Enter>'],
        [/^\? Add this member\?/, 'y', '<Enter>'],
      ],
    },
    {
      name: 'login, prompted',
      command: `${asProfile} CHAMBERCTL_CONFIG_DIR="$AUTH" cc login --base-url ${q(fixture.v2)}`,
      answers: [
        [/^\? Client id/, fixture.sandbox.credentials.clientId, '<Enter>'],
        [/^\? Client secret/, fixture.sandbox.credentials.clientSecret, '<Enter>'],
      ],
    },

    { name: 'chambers list', command: 'cc chambers list' },
    { name: 'chambers list --all --wide', command: 'cc chambers list --all --wide', kind: 'wide' },
    { name: 'chambers get', command: 'cc chambers get ch_0001' },
    { name: 'chambers get --include', command: 'cc chambers get ch_0002 --include members,events' },
    { name: 'members list', command: 'cc members list ch_0001' },
    { name: 'members list --all', command: 'cc members list ch_0001 --all' },
    { name: 'members list --sort', command: 'cc members list ch_0002 --sort -name --limit 5' },
    { name: 'events list', command: 'cc events list ch_0001 --all' },
    { name: 'fields', command: 'cc fields members' },
    { name: 'chambers list --json', command: 'cc chambers list --limit 2 --json', kind: 'data' },
    { name: 'version', command: 'cc version' },
    // A bulk run with failures, the re-run refused, resumed, and resumed on a replaced server.
    { name: 'members add --from-file', command: `cc members add ch_0003 --from-file ${q(bulk)}` },
    { name: 'bulk re-run', command: `cc members add ch_0003 --from-file ${q(bulk)}` },
    { name: 'bulk --resume', command: `cc members add ch_0003 --from-file ${q(bulk)} --resume` },
    {
      name: 'sandbox reset',
      command: `"$NODE" -e ${q(`fetch(${JSON.stringify(`${new URL(fixture.v2).origin}/_sandbox/reset`)}, { method: 'POST' })`)}`,
      kind: 'data',
    },
    {
      name: 'bulk --resume, replaced server',
      command: `cc members add ch_0003 --from-file ${q(bulk)} --resume`,
    },
    {
      name: 'bulk --resume, nothing to resume',
      command: `cc members add ch_0004 --from-file ${q(fresh)} --resume`,
    },
    // A run that ended early (its reader went away), then resumed.
    {
      name: 'bulk ended early',
      command: `cc members add ch_0006 --from-file ${q(many)} -o ndjson | head -1 >/dev/null`,
    },
    {
      name: 'bulk --resume, unfinished',
      command: `cc members add ch_0006 --from-file ${q(many)} --resume`,
    },
    { name: 'seed --dry-run', command: `cc seed ${q(path.join(dir, 'fixture.yaml'))} --dry-run` },
    { name: 'seed', command: `cc seed ${q(path.join(dir, 'fixture.yaml'))}` },
    { name: 'members add, one', command: addOne('solo@tour.example.com') },
    // A terminal that cannot run a pager (Emacs' shell, some CI consoles): a long list must not
    // wait for a key; `timeout` ends one that does.
    {
      name: 'TERM=dumb',
      command:
        'env -u CHAMBERCTL_PAGER TERM=dumb timeout --foreground 15 cc members list ch_0001 --all',
    },
    {
      name: 'TERM=dumb help',
      command: 'env -u CHAMBERCTL_PAGER TERM=dumb timeout --foreground 15 cc help reference',
      // Checked for the pager only: its lines are the help reference's above.
      kind: 'data',
    },
    // Errors.
    { name: 'bad choice', command: 'cc chambers list --status actve' },
    { name: 'not a choice', command: 'cc fields membrs' },
    { name: 'unknown option', command: 'cc chambers list --bogus' },
    { name: 'unknown command', command: 'cc chambers lst' },
    { name: 'missing argument', command: 'cc members list' },
    { name: 'bad --fields', command: 'cc members list ch_0001 --fields nme' },
    { name: 'bad --per-page', command: 'cc chambers list --per-page 500' },
    { name: 'not found', command: 'cc chambers get ch_9999' },
    { name: 'members of none', command: 'cc members list ch_9999' },
    { name: 'no input', command: 'cc members add ch_0001 --no-input' },
    { name: 'invalid member', command: addOne('not-an-address') },
    { name: 'api', command: 'cc api /chambers/ch_9999' },
    // Help and topics.
    { name: 'root help', command: 'cc --help', kind: 'help' },
    { name: 'noun help', command: 'cc members', kind: 'help' },
    { name: 'verb help', command: 'cc help members add', kind: 'help' },
    { name: 'help environment', command: 'cc help environment', kind: 'help' },
    { name: 'help exit-codes', command: 'cc help exit-codes', kind: 'help' },
    { name: 'help formatting', command: 'cc help formatting', kind: 'help' },
    { name: 'help bulk', command: 'cc help bulk', kind: 'help' },
    { name: 'help fixtures', command: 'cc help fixtures', kind: 'help' },
    { name: 'help credentials', command: 'cc help credentials', kind: 'help' },
    { name: 'help options', command: 'cc help options', kind: 'help' },
    { name: 'help reference', command: 'cc help reference', kind: 'help' },
    // Auth, in a config directory of its own.
    { name: 'login', command: `${asProfile} ${login()}` },
    { name: 'auth status', command: `${asProfile} CHAMBERCTL_CONFIG_DIR="$AUTH" cc auth status` },
    {
      name: 'auth switch',
      command: `${asProfile} CHAMBERCTL_CONFIG_DIR="$AUTH" cc auth switch nope`,
    },
    {
      name: 'list as a profile',
      command: `${asProfile} CHAMBERCTL_CONFIG_DIR="$AUTH" cc chambers list --limit 3`,
    },
    {
      name: 'bogus token',
      command:
        'env -u CHAMBERCTL_CLIENT_ID -u CHAMBERCTL_CLIENT_SECRET CHAMBERCTL_TOKEN=bogus cc chambers list',
    },
    { name: 'logout', command: `${asProfile} CHAMBERCTL_CONFIG_DIR="$AUTH" cc logout` },
    {
      name: 'auth status, logged out',
      command: `${asProfile} CHAMBERCTL_CONFIG_DIR="$AUTH" cc auth status`,
    },
  ]
}

function addOne(email: string): string {
  return `cc members add ch_0005 --name 'Solo Member' --email ${q(email)} --membership-type standard`
}

// The e-mail addresses the tour sends; with the server's, every one a screen may show.
const BULK_EMAILS = [
  'tour-1@example.com',
  'tour-2@example.com',
  'a.rather.long.local.part.for.the.tour.at.every.width@members.example.com',
]

const manyEmail = (i: number) => `many-${i}@tour.example.com`

function writeInputs(dir: string, taken: string): void {
  const rows = [
    ...BULK_EMAILS.map((email, i) => `Tour Member ${i + 1},${email},standard`),
    'Broken Address,broken-address,standard',
    `Already There,${taken},standard`,
  ]
  writeFileSync(path.join(dir, 'bulk.csv'), `name,email,membership_type\n${rows.join('\n')}\n`)
  const many = Array.from({ length: 60 }, (_, i) => `Many Member ${i},${manyEmail(i)},standard`)
  writeFileSync(path.join(dir, 'many.csv'), `name,email,membership_type\n${many.join('\n')}\n`)
  writeFileSync(
    path.join(dir, 'fresh.csv'),
    'name,email,membership_type\nFresh Member,fresh@tour.example.com,standard\n',
  )
  writeFileSync(
    path.join(dir, 'fixture.yaml'),
    [
      'chambers:',
      '  - key: tour',
      '    name: Tour Chamber of the Seeded Districts and Their Neighbouring Municipalities',
      '    type: hq',
      '    address: { city: Weimar }',
      '    members:',
      '      - { name: Seeded Person, email: seeded@tour.example.com, membership_type: standard }',
      '',
    ].join('\n'),
  )
}

// The script one tmux window runs: each step between a `@@step` line and its `@@exit` line.
// `cc` is the CLI under test (a script on the PATH, so that `env` can run it too); the end is
// told by a file, which the test can wait for without asking tmux for the screen again and again.
function script(steps: readonly Step[], dir: string): string {
  return [
    `export PATH=${q(path.join(dir, 'bin'))}:"$PATH"`,
    `NODE=${q(process.execPath)}`,
    `AUTH=${q(path.join(dir, 'auth'))}`,
    ...steps.flatMap((step) => [
      `echo ${q(`@@step ${step.name}`)}`,
      step.command,
      // On a line of its own even after a prompt left without a line break (less's "Press RETURN").
      `printf '\\n@@exit:%s\\n' "$?"`,
    ]),
    `touch ${q(path.join(dir, 'done'))}`,
  ].join('\n')
}

type StepOutput = { step: Step; lines: string[]; exit: number }

function splitSteps(transcript: readonly string[], steps: readonly Step[]): StepOutput[] {
  const outputs: StepOutput[] = []
  let current: StepOutput | undefined
  for (const line of transcript) {
    const start = /^@@step (.*)$/.exec(line)
    const end = /^@@exit:(\d+)$/.exec(line)
    if (start) {
      current = { step: steps.find((s) => s.name === start[1])!, lines: [], exit: -1 }
    } else if (end && current) {
      current.exit = Number(end[1])
      outputs.push(current)
      current = undefined
    } else current?.lines.push(line)
  }
  return outputs
}

const CHECKS = [
  'wide',
  'cut',
  'markdown',
  'help wide',
  'help cut',
  'help markdown',
  'table cut',
  'table cut with room',
  'pager blocked',
] as const
export type Findings = Record<(typeof CHECKS)[number], string[]>

// Every check is asserted; the counts are printed as well, for the person reading the run.
const ASSERTED: readonly (typeof CHECKS)[number][] = CHECKS

// The tour at one width: each step's output, as the terminal shows it.
async function tourAt(
  columns: number,
  steps: readonly Step[],
  env: NodeJS.ProcessEnv,
  dir: string,
): Promise<StepOutput[]> {
  const file = path.join(dir, `tour-${columns}.sh`)
  writeFileSync(file, script(steps, dir))
  mkdirSync(path.join(dir, 'bin'))
  writeFileSync(path.join(dir, 'bin', 'cc'), `#!/bin/sh\nexec ${CLI.map(q).join(' ')} "$@"\n`, {
    mode: 0o755,
  })
  const session = await startTmuxShell(`bash ${q(file)}`, {
    env,
    columns,
    rows: 30,
    history: 50_000,
  })
  try {
    for (const step of steps) {
      for (const [pattern, ...keys] of step.answers ?? []) {
        await session.waitFor(pattern, 120_000)
        for (const key of keys) await press(session, key)
      }
    }
    await ended(path.join(dir, 'done'), 240_000)
    return splitSteps(await session.transcript(), steps)
  } finally {
    await session.close()
  }
}

// What each check found, each line prefixed with its step: in messages, records and lists, and
// apart from them, in help and in tables' cells (see ASSERTED).
function check(outputs: readonly StepOutput[], columns: number, known: Known): Findings {
  const findings: Findings = {
    wide: [],
    cut: [],
    markdown: [],
    'help wide': [],
    'help cut': [],
    'help markdown': [],
    'table cut': [],
    'table cut with room': [],
    'pager blocked': [],
  }
  for (const { step, lines, exit } of outputs) {
    const at = (line: string) => `${step.name}: ${line}`
    if (
      step.name.startsWith('TERM=dumb') &&
      (exit === 124 || lines.some((l) => /not fully functional/.test(l)))
    ) {
      findings['pager blocked'].push(at(`exit ${exit}`))
    }
    const kind = step.kind ?? 'text'
    if (kind === 'data') continue
    const help = kind === 'help' ? 'help ' : ''
    const add = (check: 'wide' | 'cut' | 'markdown', found: string[]) =>
      findings[`${help}${check}`].push(...found.map(at))
    if (kind !== 'wide') add('wide', tooWide(lines, columns))
    // A token cut with an ellipsis in a table's cell is the table's fitting; any other cut is not.
    const rows = new Set(tablesIn(lines).flat())
    const cuts = cutTokens(lines, help ? undefined : known, (line) => rows.has(line))
    add(
      'cut',
      cuts.filter((cut) => !cut.inTable).map((cut) => cut.token),
    )
    findings['table cut'].push(...cuts.filter((cut) => cut.inTable).map((cut) => at(cut.token)))
    // Messages quote a command to type in backticks, as gh's and cargo's do; help has no such
    // excuse.
    add('markdown', rawMarkdown(lines, { quotedCommands: kind !== 'help' }))
    for (const table of tablesIn(lines)) {
      findings['table cut with room'].push(...cutWithRoom(table, columns).map(at))
    }
  }
  return findings
}

// CHAMBERCTL_TOUR_OUT=PREFIX keeps each width's transcript (PREFIX-40.txt) and findings
// (PREFIX-40.json), to read what a person would have seen.
const KEEP = process.env.CHAMBERCTL_TOUR_OUT

function keep(prefix: string, outputs: readonly StepOutput[], findings: Findings): void {
  const transcript = outputs.flatMap(({ step, exit, lines }) => [
    `@@ ${step.name} (exit ${exit})`,
    ...lines,
  ])
  writeFileSync(`${prefix}.txt`, `${transcript.join('\n')}\n`)
  writeFileSync(`${prefix}.json`, `${JSON.stringify(findings, null, 1)}\n`)
}

async function ended(file: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`the tour did not end within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

async function press(session: TmuxSession, key: string): Promise<void> {
  const name = /^<(.+)>$/.exec(key)?.[1]
  await (name ? session.key(name) : session.type(key))
}

describe.skipIf(!HAVE_TMUX)('the tour, in tmux at 40, 60, 80 and 120 columns', () => {
  const dirs: string[] = []
  const fixtures: SandboxFixture[] = []
  afterAll(async () => {
    await Promise.all(fixtures.map((fixture) => fixture.close()))
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  // One sandbox and one directory per width: the bulk steps reset the server.
  async function tour(columns: number) {
    const dir = mkdtempSync(path.join(tmpdir(), 'cct-'))
    dirs.push(dir)
    const fixture = await openSandbox()
    fixtures.push(fixture)
    const reader = new SandboxReader(fixture.sandbox)
    const [taken] = await reader.members('ch_0003')
    writeInputs(dir, taken!.email as string)
    const env = {
      HOME: dir,
      CHAMBERCTL_CONFIG_DIR: dir,
      CHAMBERCTL_PAGER: '',
      ...credentialsEnv(fixture),
    }
    const steps = tourSteps(dir, fixture)
    const emails = new Set([
      ...BULK_EMAILS,
      'solo@tour.example.com',
      'seeded@tour.example.com',
      'fresh@tour.example.com',
      'prompted.person@tour.example.com',
      ...Array.from({ length: 60 }, (_, i) => manyEmail(i)),
    ])
    const outputs = await tourAt(columns, steps, env, dir)
    // The server's addresses, read after the tour: every one it may have shown.
    for (const chamber of await reader.chambers()) {
      for (const member of await reader.members(chamber.id as string)) {
        emails.add(member.email as string)
      }
    }
    const origin = new URL(fixture.v2).origin
    const urls = [origin, fixture.v1, fixture.v2]
    const findings = check(outputs, columns, { emails, urls, dir })
    if (KEEP) keep(`${KEEP}-${columns}`, outputs, findings)
    return { outputs, findings }
  }

  const results = new Map<number, Awaited<ReturnType<typeof tour>>>()
  beforeAll(async () => {
    const started = Date.now()
    await Promise.all(WIDTHS.map(async (columns) => results.set(columns, await tour(columns))))
    // The counts of every check and the time, for the person reading the run (and the lead).
    process.stdout.write(`tour: ${WIDTHS.length} widths in ${Date.now() - started} ms\n`)
  }, TIMEOUT)

  it.each(WIDTHS)('at %i columns every line fits and nothing is cut', (columns) => {
    const { findings } = results.get(columns)!
    const counts = CHECKS.map((check) => `${check} ${findings[check].length}`).join(', ')
    process.stdout.write(`tour at ${columns}: ${counts}\n`)
    for (const check of ASSERTED) expect(findings[check], check).toEqual([])
  })
})
