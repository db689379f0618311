// `api <path>`: a raw authenticated request with chamberctl's auth and exit codes. Queries, -f/-F
// bodies, --input, -H, -i, --paginate, v1 paths, errors, token refresh and the JSON layout; and
// -f/-F keys as `gh api` reads them (toBody): `__proto__`, `constructor` and `prototype` are keys
// like any other, sent as written, never reaching Object.prototype.
import { writeFileSync } from 'node:fs'
import { PassThrough } from 'node:stream'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { toBody } from '../../../src/commands/api/fields.js'
import { BIG_CHAMBER, BIG_CHAMBER_MEMBERS, CHAMBER_IDS } from '../../helpers/sandbox.js'
import { readProfile, tokenOf } from '../../helpers/config-files.js'
import { runMain, useDemoSandbox } from '../../helpers/run-main.js'
import { idsOf, lines, yamlDocuments } from '../../helpers/output.js'
import type { FakeApi } from '../../helpers/fake-api.js'
import { startFakeApi } from '../../helpers/fake-api.js'
import { ApiClient } from '../../sandbox/helpers.js'
import type { Rec } from '../../sandbox/helpers.js'

const { sandbox, demo, configDir, run, runBare, tempDir, loginWithStaleToken } = useDemoSandbox()

let api: ApiClient
beforeAll(() => {
  api = new ApiClient(sandbox().sandbox, 'v2')
})

// What the sandbox was asked since the last reset, token requests aside.
function asked(): string[] {
  return sandbox()
    .requests.filter((r) => !r.path.endsWith('/auth/token'))
    .map((r) => `${r.method} ${decodeURIComponent(r.path)} ${r.status}`)
}

function write(name: string, text: string): string {
  const file = path.join(tempDir(), name)
  writeFileSync(file, text)
  return file
}

let names = 0
const uniqueName = (what: string) => `${what} ${++names}.${Date.now() % 100_000}`

describe('api: GET', () => {
  it('sends the query written in the path and prints the body', async () => {
    sandbox().reset()
    const { code, stdout, stderr } = await run(['api', '/chambers?per_page=2'])
    expect(code, stderr).toBe(0)
    const body = JSON.parse(stdout) as { data: Rec[]; meta: Record<string, number> }
    expect(idsOf(body.data)).toEqual(CHAMBER_IDS.slice(0, 2))
    expect(body.meta).toEqual({ current_page: 1, per_page: 2, total: 10 })
    expect(asked()).toEqual(['GET /v2/chambers?per_page=2 200'])
  })

  it('turns -f fields into query parameters with -X GET', async () => {
    sandbox().reset()
    const { code, stdout } = await run(['api', '-X', 'GET', '/chambers', '-f', 'filter[type]=hq'])
    expect(code).toBe(0)
    const { data } = JSON.parse(stdout) as { data: Rec[] }
    expect(idsOf(data)).toEqual(['ch_0001', 'ch_0002', 'ch_0003', 'ch_0004'])
    expect(data.every((chamber) => chamber.type === 'hq')).toBe(true)
    expect(asked()).toEqual(['GET /v2/chambers?filter[type]=hq 200'])
  })

  it('joins -F fields to a query of the path, typed values as text', async () => {
    sandbox().reset()
    const { code, stdout } = await run([
      'api',
      '-X',
      'get',
      '/chambers?filter[type]=subsidiary',
      '-F',
      'per_page=3',
    ])
    expect(code).toBe(0)
    const { data, meta } = JSON.parse(stdout) as { data: Rec[]; meta: { per_page: number } }
    expect(meta.per_page).toBe(3)
    expect(data.map((chamber) => chamber.type)).toEqual(['subsidiary', 'subsidiary', 'subsidiary'])
    expect(asked()).toEqual(['GET /v2/chambers?filter[type]=subsidiary&per_page=3 200'])
  })

  it('prints pretty JSON on a TTY and one compact line in a pipe', async () => {
    const record = demo.chambers.find((c) => c.id === 'ch_0002')
    const tty = await run(['api', '/chambers/ch_0002'], { stdoutIsTTY: true })
    expect(tty.stdout).toBe(`${JSON.stringify(record, null, 2)}\n`)
    const pipe = await run(['api', '/chambers/ch_0002'])
    expect(pipe.stdout).toBe(`${JSON.stringify(record)}\n`)
  })

  it('prints a JSON body as one YAML document with -o yaml, a 404 body too', async () => {
    const record = demo.chambers.find((c) => c.id === 'ch_0002')
    const yaml = await run(['api', '/chambers/ch_0002', '-o', 'yaml'])
    expect(yaml.stdout).toMatch(/^id: ch_0002\n/)
    expect(yamlDocuments(yaml.stdout)).toEqual([record])
    const missing = await run(['api', '/chambers/ch_9999', '-o', 'yaml'])
    expect(missing.code).toBe(3)
    expect(missing.stdout).toMatch(/^error: /)
  })

  it('prints the status line and the response headers first with -i', async () => {
    const { code, stdout } = await run(['api', '-i', '/chambers/ch_0002'])
    expect(code).toBe(0)
    const [head, body] = stdout.split('\n\n')
    const [status, ...headers] = head!.split('\n')
    expect(status).toBe('HTTP 200')
    expect(headers).toEqual(
      expect.arrayContaining([expect.stringMatching(/^content-type: application\/json/)]),
    )
    expect(headers.every((line) => /^[a-z0-9-]+: .*/.test(line))).toBe(true)
    expect(JSON.parse(body!)).toMatchObject({ id: 'ch_0002' })
  })
})

describe('api: errors', () => {
  it('exits 3 for a 404, with the body on stdout and one error line on stderr', async () => {
    const { code, stdout, stderr } = await run(['api', '/chambers/ch_nope'])
    expect(code).toBe(3)
    expect(JSON.parse(stdout)).toEqual({ error: 'chamber ch_nope not found' })
    expect(lines(stderr)).toEqual([expect.stringMatching(/^error: chamber ch_nope not found/)])
  })

  it('shows the status line of a 404 with -i, still exiting 3', async () => {
    const { code, stdout } = await run(['api', '/chambers/ch_nope', '--include'])
    expect(code).toBe(3)
    expect(stdout).toMatch(/^HTTP 404\n/)
  })

  it('exits 2 for a 422, with the field errors on stdout and stderr', async () => {
    sandbox().reset()
    const { code, stdout, stderr } = await run(['api', '/chambers', '-f', 'name=Half a Chamber'])
    expect(code).toBe(2)
    expect(JSON.parse(stdout)).toEqual({
      error: 'validation failed',
      fields: { type: ['is required'], address: ['is required'] },
    })
    expect(stderr).toMatch(/^error: validation failed/)
    expect(stderr).toMatch(/type\s+is required/)
    expect(asked()).toEqual(['POST /v2/chambers 422'])
  })

  it.each([
    ['--paginate with a POST', ['api', '/chambers', '-X', 'POST', '--paginate'], /--paginate/],
    ['--input together with -f', ['api', '/chambers', '--input', '-', '-f', 'a=b'], /--input/],
    ['an unknown method', ['api', '/chambers', '-X', 'FETCH'], /-X FETCH/],
    ['a full URL', ['api', 'https://example.com/v2/chambers'], /path under the base URL/],
    ['a header without a colon', ['api', '/chambers', '-H', 'X-Flag'], /Name: value/],
    ['a field key with a bad bracket', ['api', '/chambers', '-f', 'a[b=c'], /field key/],
    // A URL parser drops tabs and line breaks, so `/cham\tbers` would reach /chambers.
    ['a control character in the path', ['api', '/cham\tbers'], /control character/],
    ['a protocol-relative path', ['api', '//example.com/v2/chambers'], /path under the base URL/],
  ])('refuses %s with exit 2 before any request', async (_, args, message) => {
    sandbox().reset()
    const { code, stdout, stderr } = await run(args)
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(message)
    expect(sandbox().requests).toEqual([])
  })
})

describe('api: stdin is read at most once', () => {
  it('refuses -F a=@- twice with exit 2 before reading or sending anything', async () => {
    sandbox().reset()
    const stdin = new PassThrough().end('{"x":1}')
    const args = ['api', '/chambers', '-F', 'name=@-', '-F', 'note=@-', '-F', 'type=hq']
    const { code, stdout, stderr } = await run(args, { stdin })
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe(
      'error: -F name=@- and -F note=@- would each read stdin, which can be read only once: give all but one a file (@path)\n',
    )
    expect(stdin.readableEnded).toBe(false)
    expect(sandbox().requests).toEqual([])
  })

  it('refuses --input - with -F a=@- before reading stdin', async () => {
    sandbox().reset()
    const stdin = new PassThrough().end('{"x":1}')
    const { code, stderr } = await run(['api', '/chambers', '--input', '-', '-F', 'a=@-'], {
      stdin,
    })
    expect(code).toBe(2)
    expect(stderr).toBe('error: --input and -f/-F both give a body: use one\n')
    expect(stdin.readableEnded).toBe(false)
    expect(sandbox().requests).toEqual([])
  })

  it('takes one -F a=@- with other fields from files', async () => {
    sandbox().reset()
    const name = write('name.txt', 'Stdin Once Chamber')
    const stdin = new PassThrough().end('subsidiary')
    const args = ['api', '/chambers', '-F', `name=@${name}`, '-F', 'type=@-', '--json']
    const { code, stdout } = await run(
      [...args, '-F', 'hq_id=ch_0001', '-F', 'address[city]=Ulm'],
      {
        stdin,
      },
    )
    expect(code, stdout).toBe(0)
    expect(JSON.parse(stdout)).toMatchObject({ name: 'Stdin Once Chamber', type: 'subsidiary' })
  })
})

describe('api: the path stays under the base URL', () => {
  it.each([
    ['/../v1/chambers', 'GET /v2/v1/chambers 404'],
    ['/chambers/%2e%2e/..', 'GET /v2/ 404'],
    ['chambers/ch_0001/../ch_0002', 'GET /v2/chambers/ch_0002 200'],
  ])('%s: dot segments resolve below the base URL, never above it', async (given, sent) => {
    sandbox().reset()
    await run(['api', given])
    expect(asked()).toEqual([sent])
  })
})

describe('api: request bodies', () => {
  it('sends -f as strings and -F typed, nested and as arrays, POST by default', async () => {
    const note = write('note.txt', 'first line\nsecond line\n')
    const name = uniqueName('Fields')
    sandbox().reset()
    const { code, stdout, stderr } = await run([
      'api',
      '/chambers',
      '-f',
      `name=${name}`,
      '-f',
      'type=hq',
      '-f',
      'code=42',
      '-F',
      'address[city]=Potsdam',
      '-F',
      'address[postal_code]=01234',
      '-F',
      'contact[person][name]=Ada',
      '-F',
      'seats=12',
      '-F',
      'ratio=-1.5e2',
      '-F',
      'verified=true',
      '-F',
      'archived=false',
      '-F',
      'fax=null',
      '-F',
      'tags[]=export',
      '-F',
      'tags[]=7',
      '-F',
      `note=@${note}`,
    ])
    expect(code, stderr).toBe(0)
    const expected = {
      name,
      type: 'hq',
      code: '42',
      address: { city: 'Potsdam', postal_code: '01234' },
      contact: { person: { name: 'Ada' } },
      seats: 12,
      ratio: -150,
      verified: true,
      archived: false,
      fax: null,
      tags: ['export', 7],
      note: 'first line\nsecond line\n',
    }
    expect(asked()).toEqual(['POST /v2/chambers 201'])
    const created = JSON.parse(stdout) as Rec
    expect(created).toMatchObject(expected)
    // The sandbox keeps unknown fields as sent, so what it holds is what went over the wire.
    expect((await api.get(`/chambers/${created.id}`)).body).toMatchObject(expected)
  })

  it('sends __proto__ and constructor keys as written, in a body and a query', async () => {
    const listener = await startFakeApi({
      token: { access_token: 'tok-proto-1', expires_in: 3600 },
      answer: () => ({ body: {} }),
    })
    const env = {
      CHAMBERCTL_CONFIG_DIR: tempDir(),
      CHAMBERCTL_BASE_URL: listener.baseUrl(),
      CHAMBERCTL_CLIENT_ID: 'ci',
      CHAMBERCTL_CLIENT_SECRET: 'secret-proto',
    }
    try {
      const fields = ['-f', 'prototype=3', '-F', '__proto__[x]=1', '-F', 'constructor[x]=2']
      const post = await runMain(['api', '/things', ...fields], { env })
      expect(post.code, post.stderr).toBe(0)
      const get = await runMain(['api', '-X', 'GET', '/things?a=1', '-f', '__proto__=1'], { env })
      expect(get.code, get.stderr).toBe(0)
      expect(({} as Record<string, unknown>).x).toBeUndefined()
      const sent = listener.requests.filter((r) => !r.path.endsWith('/auth/token'))
      expect(sent.map((r) => `${r.method} ${r.path} ${r.body}`)).toEqual([
        'POST /v2/things {"prototype":"3","__proto__":{"x":1},"constructor":{"x":2}}',
        'GET /v2/things?a=1&__proto__=1 ',
      ])
    } finally {
      delete (Object.prototype as Record<string, unknown>).x
      await listener.close()
    }
  })

  it('sends a -F number as a number: the sandbox stores it as one', async () => {
    const { code, stdout } = await run([
      'api',
      '/chambers',
      '-f',
      `name=${uniqueName('Numeric')}`,
      '-f',
      'type=hq',
      '-F',
      'address[postal_code]=10623',
    ])
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toMatchObject({ address: { postal_code: 10623 } })
  })

  // Not under the big chamber, whose 260 members the --paginate tests count.
  it('adds a member under a chamber with -X POST and -f fields', async () => {
    const email = `${uniqueName('m').replace(/\W/g, '')}@example.com`
    const { code, stdout } = await run([
      'api',
      '-X',
      'POST',
      '/chambers/ch_0010/members',
      '-f',
      'name=Via Api',
      '-f',
      `email=${email}`,
      '-f',
      'membership_type=standard',
    ])
    expect(code).toBe(0)
    const member = JSON.parse(stdout) as Rec
    expect(member).toMatchObject({ chamber_id: 'ch_0010', email })
    expect((await api.get(`/chambers/ch_0010/members/${member.id}`)).status).toBe(200)
  })

  type Source = (body: string) => { args: string[]; stdin?: string }
  it.each<[string, Source]>([
    ['a file', (body) => ({ args: ['--input', write('body.json', body)] })],
    ['stdin', (body) => ({ args: ['--input', '-'], stdin: body })],
  ])('sends the body of --input from %s as it is', async (_, source) => {
    const name = uniqueName('Input')
    const body = `{"name": "${name}", "type": "hq", "address": {"city": "Kiel"}, "rank": 1.50}`
    const { args, stdin } = source(body)
    sandbox().reset()
    const { code, stdout, stderr } = await run(['api', '/chambers', ...args], { stdin })
    expect(code, stderr).toBe(0)
    const created = JSON.parse(stdout) as Rec
    expect(created).toMatchObject({ name, type: 'hq', address: { city: 'Kiel' }, rank: 1.5 })
    expect(asked()).toEqual(['POST /v2/chambers 201'])
  })

  it('sends a body that is not JSON as it is: the sandbox answers 400 (exit 1)', async () => {
    const { code, stdout } = await run(['api', '/chambers', '--input', '-'], { stdin: 'name=x' })
    expect(code).toBe(1)
    expect(JSON.parse(stdout)).toEqual({ error: expect.any(String) })
  })
})

describe('api: headers', () => {
  let recorder: FakeApi
  beforeAll(async () => {
    recorder = await startFakeApi({ upstream: sandbox().sandbox.url })
  })
  afterAll(async () => {
    await recorder.close()
  })

  it('sends every -H header, with the bearer token, to the server', async () => {
    recorder.requests.splice(0)
    const { code } = await run(
      ['api', '/chambers/ch_0003', '-H', 'X-Request-Id: abc-123', '-H', 'Accept-Language:  de-DE '],
      { env: { CHAMBERCTL_BASE_URL: recorder.baseUrl('v2') } },
    )
    expect(code).toBe(0)
    const sent = recorder.requests.filter((r) => r.path === '/v2/chambers/ch_0003')
    expect(sent).toHaveLength(1)
    expect(sent[0]!.headers).toMatchObject({
      'x-request-id': 'abc-123',
      'accept-language': 'de-DE',
      authorization: expect.stringMatching(/^Bearer sbx_v2_/),
    })
  })

  it('lets -H set the content type of an --input body', async () => {
    recorder.requests.splice(0)
    const { code } = await run(
      ['api', '/chambers', '--input', '-', '-H', 'Content-Type: application/merge-patch+json'],
      {
        env: { CHAMBERCTL_BASE_URL: recorder.baseUrl('v2') },
        stdin: JSON.stringify({ name: uniqueName('Typed'), type: 'hq', address: {} }),
      },
    )
    expect(code).toBe(0)
    const [post] = recorder.requests.filter((r) => r.path === '/v2/chambers')
    expect(post!.headers['content-type']).toBe('application/merge-patch+json')
  })
})

describe('api --paginate', () => {
  const members = demo.members.filter((m) => m.chamber_id === BIG_CHAMBER)

  it('walks every page of the 260 members and prints one JSON array', async () => {
    sandbox().reset()
    const { code, stdout, stderr } = await run([
      'api',
      `/chambers/${BIG_CHAMBER}/members`,
      '--paginate',
    ])
    expect(code, stderr).toBe(0)
    expect(lines(stdout)).toHaveLength(1)
    const records = JSON.parse(stdout) as Rec[]
    expect(records).toHaveLength(BIG_CHAMBER_MEMBERS)
    expect(records).toEqual(members)
    expect(asked().sort()).toEqual([
      `GET /v2/chambers/${BIG_CHAMBER}/members?page=1&per_page=100 200`,
      `GET /v2/chambers/${BIG_CHAMBER}/members?page=2&per_page=100 200`,
      `GET /v2/chambers/${BIG_CHAMBER}/members?page=3&per_page=100 200`,
    ])
  })

  it('walks every page with -o yaml into a stream of one document a record', async () => {
    const { code, stdout, stderr } = await run([
      'api',
      `/chambers/${BIG_CHAMBER}/members`,
      '--paginate',
      '-o',
      'yaml',
    ])
    expect(code, stderr).toBe(0)
    expect(yamlDocuments(stdout)).toEqual(members)
  })

  it('keeps the per_page and filters of the path, pretty on a TTY', async () => {
    sandbox().reset()
    const { code, stdout } = await run(
      ['api', `/chambers/${BIG_CHAMBER}/members?per_page=50&filter[status]=active`, '--paginate'],
      { stdoutIsTTY: true },
    )
    expect(code).toBe(0)
    const active = members.filter((m) => m.status === 'active')
    expect(stdout).toBe(`${JSON.stringify(active, null, 2)}\n`)
    const pages = Math.ceil(active.length / 50)
    expect(asked()).toHaveLength(pages)
    expect(
      asked().every(
        (line) => line.includes('per_page=50') && line.includes('filter[status]=active'),
      ),
    ).toBe(true)
  })
})

describe('api on a v1 base URL', () => {
  const v1 = () => ({ env: { CHAMBERCTL_BASE_URL: sandbox().v1 } })

  it('reaches v1 paths, --paginate included', async () => {
    sandbox().reset()
    const { code, stdout, stderr } = await run(['api', '/chambers', '--paginate'], v1())
    expect(code, stderr).toBe(0)
    expect(idsOf(JSON.parse(stdout) as Rec[]).slice(0, 10)).toEqual(CHAMBER_IDS)
    expect(asked()[0]).toMatch(/^GET \/v1\/chambers\?page=1&per_page=100 200$/)
    expect(sandbox().requests.find((r) => r.path.endsWith('/auth/token'))?.path).toBe(
      '/v1/auth/token',
    )
  })

  it('passes the server answer for what v1 lacks: 404 for events (exit 3)', async () => {
    const { code, stdout } = await run(['api', `/chambers/${BIG_CHAMBER}/events`], v1())
    expect(code).toBe(3)
    expect(JSON.parse(stdout)).toEqual({ error: expect.stringMatching(/v2/) })
  })
})

describe('api: token refresh', () => {
  it('recovers from a stale profile token with the stored secret, for a GET', async () => {
    await loginWithStaleToken()
    const { code, stdout } = await runBare(['api', '/chambers/ch_0003'])
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toMatchObject({ id: 'ch_0003' })
    expect(sandbox().requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'GET /v2/chambers/ch_0003 401',
      'POST /v2/auth/token 200',
      'GET /v2/chambers/ch_0003 200',
    ])
    expect(tokenOf(readProfile(configDir()))!.access_token).not.toBe('sbx_v2_stale')
  })

  it('recovers for a POST too, creating the record once', async () => {
    await loginWithStaleToken()
    const name = uniqueName('Refreshed')
    const { code } = await runBare([
      'api',
      '/chambers',
      '-f',
      `name=${name}`,
      '-f',
      'type=hq',
      '-F',
      'address[city]=Ulm',
    ])
    expect(code).toBe(0)
    expect(sandbox().requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /v2/chambers 401',
      'POST /v2/auth/token 200',
      'POST /v2/chambers 201',
    ])
    const all = await api.listAll('/chambers')
    expect(all.filter((c) => c.name === name)).toHaveLength(1)
  })

  it('asks for a new token first when the cached one has expired', async () => {
    // Expired by the clock: no request goes out with it.
    await loginWithStaleToken({ expires_at: Date.now() - 60_000 })
    const { code } = await runBare(['api', '/chambers?per_page=1'])
    expect(code).toBe(0)
    expect(sandbox().requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /v2/auth/token 200',
      'GET /v2/chambers?per_page=1 200',
    ])
  })

  it('exits 4 when the token is rejected and the stored secret is no longer valid', async () => {
    await loginWithStaleToken({}, 'revoked')
    const { code, stdout, stderr } = await runBare(['api', '/chambers'])
    expect(code).toBe(4)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/^error: /)
    expect(sandbox().requests.map((r) => `${r.method} ${r.status}`)).toEqual([
      'GET 401',
      'POST 401',
    ])
  })
})

describe('toBody', () => {
  afterEach(() => {
    // Only a failing run leaves this; it must not leak into the other tests.
    delete (Object.prototype as Record<string, unknown>).x
  })

  it('nests a[b]=c and appends a[]=c', () => {
    const body = toBody([
      { key: 'a[b]', value: 1 },
      { key: 'a[c][d]', value: 'e' },
      { key: 'l[]', value: 1 },
      { key: 'l[]', value: 2 },
    ])
    expect(JSON.stringify(body)).toBe('{"a":{"b":1,"c":{"d":"e"}},"l":[1,2]}')
  })

  it('keeps __proto__, constructor and prototype as plain keys, Object.prototype untouched', () => {
    const body = toBody([
      { key: '__proto__[x]', value: 1 },
      { key: 'constructor[x]', value: 2 },
      { key: 'prototype[x]', value: 3 },
      { key: 'a[__proto__][x]', value: 4 },
      { key: 'a[constructor]', value: 5 },
    ])
    expect(({} as Record<string, unknown>).x).toBeUndefined()
    expect(JSON.stringify(body)).toBe(
      '{"__proto__":{"x":1},"constructor":{"x":2},"prototype":{"x":3},"a":{"__proto__":{"x":4},"constructor":5}}',
    )
  })

  it('sends __proto__=value as a key too', () => {
    expect(JSON.stringify(toBody([{ key: '__proto__', value: 'v' }]))).toBe('{"__proto__":"v"}')
  })
})
