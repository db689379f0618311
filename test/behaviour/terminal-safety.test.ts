// Contract §4: text from a server or a file never reaches a terminal raw. A loopback server
// answers every request with hostile text (an id that clears the screen, a name that writes the
// clipboard with OSC 52, C1 controls, bidi overrides, zero-width characters); each output path
// runs with TTY-flagged streams, and the bytes written must hold none of it raw, only the
// escaped form. The same commands in a pipe print the machine formats byte for byte.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { runMain } from '../helpers/run-main.js'
import type { RunOptions } from '../helpers/run-main.js'
import { useFakeApi } from '../helpers/fake-api.js'
import { useTempDirs } from '../helpers/sandbox.js'
import type { FakeRequest, Reply } from '../helpers/fake-api.js'

const ID = 'c1\u001b[2J'
const NAME = 'Evil\u001b]52;c;cm0gLXJm\u0007 \u202eproC\u009b31m\u200b'
// JSON.stringify leaves C1 and bidi characters as they are.
const TOKEN_NOTE = 'see \u009b2J \u202ehere'
// What the terminal must show instead: the same characters, escaped.
const ID_SHOWN = 'c1\\x1b[2J'
const NAME_SHOWN = 'Evil\\x1b]52;c;cm0gLXJm\\x07 \\u202eproC\\x9b31m\\u200b'

// ESC, BEL, the other C0 controls but tab, line feed and the CR of a CRLF, DEL, C1, bidi
// controls, zero-width characters.
const RAW =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/u

const chamber = {
  id: ID,
  name: NAME,
  type: 'hq',
  status: 'active',
  address: { city: NAME },
  [`x${NAME}`]: 'an extra field with a hostile key',
  members: [{ id: ID, name: NAME, email: 'a@example.com' }],
}
const member = { id: ID, name: NAME, email: 'ada@example.com', membership_type: NAME }

// Every answer carries a hostile header too.
const send = (status: number, value: unknown, type = 'application/json'): Reply => ({
  status,
  body: typeof value === 'string' ? value : JSON.stringify(value),
  headers: { 'content-type': type, 'x-note': 'h\u009bi' },
})

function answer({ method, path: target, body }: FakeRequest): Reply {
  const p = new URL(target, 'http://x').pathname
  if (p === '/v2/auth/token') {
    const token = body.includes('client_id=hostile') || body.includes('"hostile"') ? ID : 'tok'
    return send(200, { access_token: token, expires_in: 3600, note: TOKEN_NOTE })
  }
  if (p === '/v2/text') return send(200, `plain ${NAME}\n`, 'text/plain')
  if (p === '/v2/chambers/gone') return send(404, { error: `no chamber ${NAME}` })
  if (method === 'POST' && p === '/v2/chambers') return send(201, chamber)
  if (method === 'POST' && p.endsWith('/members')) {
    const sent = JSON.parse(body) as { email: string }
    if (sent.email === 'refused@example.com') {
      return send(422, {
        error: `refused ${NAME}`,
        fields: { [`email${NAME}`]: [`taken ${NAME}`] },
      })
    }
    return send(201, member)
  }
  if (p.endsWith('/members')) return send(200, { data: [member], meta: { total: 1 } })
  if (p === '/v2/chambers') return send(200, { data: [chamber], meta: { total: 1 } })
  return send(200, chamber)
}

const api = useFakeApi({ token: false, answer }, 'file')

const tempDir = useTempDirs('chamberctl-terminal-safety-')

function run(args: string[], options: RunOptions = {}) {
  return runMain(args, {
    stdoutIsTTY: true,
    stderrIsTTY: true,
    stdoutWidth: 200,
    ...options,
    env: {
      CHAMBERCTL_CONFIG_DIR: tempDir(),
      CHAMBERCTL_BASE_URL: api().baseUrl(),
      CHAMBERCTL_CLIENT_ID: 'id',
      CHAMBERCTL_CLIENT_SECRET: 'secret',
      // Colour would write escape sequences of our own; without it any ESC is the server's.
      NO_COLOR: '1',
      ...options.env,
    },
  })
}

function expectSafe(text: string, ...shown: string[]): void {
  expect(text).not.toMatch(RAW)
  for (const part of shown) expect(text).toContain(part)
}

const MEMBER_FLAGS = ['--name', 'Ada', '--email', 'ada@example.com', '--membership-type', 'std']

describe('nothing from the server reaches a terminal raw', () => {
  it.each([
    ['a table', ['chambers', 'list']],
    ['a record view', ['chambers', 'get', 'c1']],
    ['a record view with lists', ['chambers', 'get', 'c1', '--include', 'members']],
    ['-o csv', ['chambers', 'list', '-o', 'csv']],
    ['-o tsv', ['chambers', 'list', '-o', 'tsv']],
    ['the members table', ['members', 'list', 'c1']],
  ])('%s', async (_, args) => {
    const { code, stdout, stderr } = await run(args)
    expect(code, stderr).toBe(0)
    expectSafe(stdout + stderr, ID_SHOWN, NAME_SHOWN)
  })

  it('-o csv shows a line break in a cell escaped, so a record stays one line', async () => {
    const { stdout } = await run(['chambers', 'list', '-o', 'csv', '--fields', 'id,name'])
    expect(stdout).toBe(`id,name\r\n${ID_SHOWN},${NAME_SHOWN}\r\n`)
  })

  it.each([
    ['--json', ['chambers', 'list', '--json']],
    ['-o ndjson', ['chambers', 'list', '-o', 'ndjson']],
    ['--json on a record', ['chambers', 'get', 'c1', '--json']],
    ['--jq over values', ['chambers', 'list', '--jq', '.[0]']],
  ])('%s: JSON escapes, so it is still the same JSON', async (_, args) => {
    const { code, stdout, stderr } = await run(args)
    expect(code, stderr).toBe(0)
    expectSafe(stdout + stderr)
    const parsed = JSON.parse(stdout.trim().replace(/^\[/, '').replace(/\]$/, '')) as unknown
    expect(parsed).toEqual(chamber)
  })

  it.each([
    ['-o yaml', ['chambers', 'list', '-o', 'yaml'], [chamber]],
    ['--all -o yaml', ['chambers', 'list', '--all', '-o', 'yaml', '-q'], chamber],
    ['-o yaml on a record', ['chambers', 'get', 'c1', '-o', 'yaml'], chamber],
  ])('%s: YAML escapes, so it is still the same YAML', async (_, args, expected) => {
    const { code, stdout, stderr } = await run(args)
    expect(code, stderr).toBe(0)
    expectSafe(stdout + stderr)
    expect(stdout).toContain('id: "c1\\e[2J"')
    expect(parseYaml(stdout)).toEqual(expected)
  })

  it('--jq printing raw strings', async () => {
    const { code, stdout } = await run(['chambers', 'list', '--jq', '.[].id, .[].name'])
    expect(code).toBe(0)
    expect(stdout).toBe(`${ID_SHOWN}\n${NAME_SHOWN}\n`)
  })

  it('Created chamber <id>', async () => {
    const args = ['chambers', 'create', '--name', 'N', '--type', 'hq', '--address-field', 'c=B']
    const { code, stdout, stderr } = await run(args)
    expect(code, stderr).toBe(0)
    expectSafe(stdout + stderr)
    expect(stderr).toContain(`Created chamber ${ID_SHOWN} (N)`)
  })

  it('Added member <id>, and a name from a file in the confirmation', async () => {
    const { code, stdout, stderr } = await run(['members', 'add', 'c1', ...MEMBER_FLAGS])
    expect(code, stderr).toBe(0)
    expectSafe(stdout + stderr, NAME_SHOWN)
    expect(stderr).toContain(`Added member ${ID_SHOWN} (ada@example.com) to chamber c1`)
  })

  it('--debug traces', async () => {
    const { code, stderr } = await run(['chambers', 'list', '--debug', '-o', 'json'])
    expect(code, stderr).toBe(0)
    expectSafe(stderr, 'see \\x9b2J \\u202ehere')
  })

  it('error lines, the field table and the JSON error object', async () => {
    // A chamber's 404 is said in chamberctl's words; the server's own, with --debug, escaped.
    const gone = await run(['chambers', 'get', 'gone', '--debug'])
    expect(gone.code).toBe(3)
    expectSafe(
      gone.stderr,
      'error: chamber gone not found (HTTP 404)',
      'response body: {"error":"no chamber Evil',
    )
    const refused = await run([
      'members',
      'add',
      'c1',
      ...MEMBER_FLAGS.slice(0, 2),
      '--email',
      'refused@example.com',
      '--membership-type',
      'std',
      '--json',
    ])
    expect(refused.code).toBe(2)
    expectSafe(refused.stderr, `refused ${NAME_SHOWN}`, `email${NAME_SHOWN}`, `taken ${NAME_SHOWN}`)
    const object = refused.stderr.split('\n').find((line) => line.startsWith('{'))!
    expect(JSON.parse(object)).toMatchObject({
      error: { fields: { [`email${NAME}`]: [`taken ${NAME}`] } },
    })
  })

  it('bulk results: the failed rows and their reasons', async () => {
    const dir = tempDir()
    const file = path.join(dir, 'rows.csv')
    writeFileSync(file, `name,email,membership_type\n"A${NAME}",refused@example.com,std\n`)
    const { code, stdout, stderr } = await run(
      ['members', 'add', 'c1', '--from-file', file, '-q'],
      {
        env: { CHAMBERCTL_CONFIG_DIR: dir },
      },
    )
    expect(code, stderr).toBe(1)
    // The reason leads with the field's message (the server's own message is left out then).
    expectSafe(stdout + stderr, `email${NAME_SHOWN}`, `taken ${NAME_SHOWN}`)
  })

  it('api: JSON, a text body and headers', async () => {
    const json = await run(['api', '/chambers/c1', '-i'])
    expect(json.code).toBe(0)
    expectSafe(json.stdout, 'x-note: h\\x9bi', '"id": "c1\\u001b[2J"')
    expect(JSON.parse(json.stdout.slice(json.stdout.indexOf('\n\n')))).toEqual(chamber)
    const text = await run(['api', '/text'])
    expect(text.code).toBe(0)
    expect(text.stdout).toBe(`plain ${NAME_SHOWN}\n`)
  })

  it('auth token: a token that could drive the terminal is shown escaped, if at all', async () => {
    const { code, stdout, stderr } = await run(['auth', 'token'], {
      env: { CHAMBERCTL_CLIENT_ID: 'hostile' },
    })
    expectSafe(stdout + stderr)
    // A token no header can carry may be refused as an unusable answer instead.
    if (code === 0) expect(stdout).toBe(`${ID_SHOWN}\n`)
  })

  it('in a pipe, every machine format is written byte for byte as the server sent it', async () => {
    const pipe = { stdoutIsTTY: false, stderrIsTTY: false }
    const json = await run(['chambers', 'list', '--json'], pipe)
    expect(json.stdout).toBe(`${JSON.stringify([chamber])}\n`)
    const csv = await run(['chambers', 'list', '-o', 'csv', '--fields', 'id,name'], pipe)
    expect(csv.stdout).toBe(`id,name\r\n${ID},${NAME}\r\n`)
    const tsv = await run(['chambers', 'list', '--fields', 'id,name'], pipe)
    expect(tsv.stdout).toBe(`${ID}\t${NAME}\n`)
    const text = await run(['api', '/text'], pipe)
    expect(text.stdout).toBe(`plain ${NAME}\n`)
  })
})

describe('seen by the server', () => {
  it('every path above reached it', () => {
    const seen = api().requests.map((r) => `${r.method} ${new URL(r.path, 'http://x').pathname}`)
    expect(seen).toContain('GET /v2/chambers')
    expect(seen).toContain('POST /v2/chambers/c1/members')
  })
})
