// The base URL rules of contract §1, wherever a base URL enters (--base-url, CHAMBERCTL_BASE_URL,
// a profile, the login prompt): http(s) only, a path ending in /v1 or /v2, no query, no fragment,
// no user:password@. Anything else is exit 2 before a byte is sent, and a password is never
// printed back.
import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { baseUrlProblem } from '../../src/api/base-url.js'
import { configFile } from '../helpers/config-files.js'
import { useBareCommands } from '../helpers/run-main.js'
import type { RunOptions } from '../helpers/run-main.js'
import { useFakeApi } from '../helpers/fake-api.js'

const PASSWORD = 'hunter2-pw'
const TOKEN_ANSWER = { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 }
const LIST = { data: [], meta: { current_page: 1, per_page: 20, total: 0 } }
const listener = useFakeApi({ token: TOKEN_ANSWER, answer: () => ({ body: LIST }) })
const { runBare, configDir } = useBareCommands()
const run = (args: string[], env: NodeJS.ProcessEnv = {}, options: RunOptions = {}) =>
  runBare(args, { ...options, env })

const origin = () => new URL(listener().baseUrl()).origin

// Each bad base URL (on the listener's origin, so that anything sent would be seen) and what
// the error says about it.
const BAD: [string, (o: string) => string, RegExp][] = [
  ['a query', (o) => `${o}/v2?tenant=acme`, /must not contain a query/],
  ['an empty query', (o) => `${o}/v2?`, /must not contain a query/],
  ['a fragment', (o) => `${o}/v2#frag`, /must not contain a fragment/],
  ['ftp:', (o) => `${o.replace('http:', 'ftp:')}/v2`, /must be http:\/\/ or https:\/\/, not ftp:/],
  ['ws:', (o) => `${o.replace('http:', 'ws:')}/v2`, /must be http:\/\/ or https:\/\/, not ws:/],
  ['file:', () => 'file:///tmp/v2', /must be http:\/\/ or https:\/\/, not file:/],
  ['no version', (o) => `${o}/api`, /must end in \/v1 or \/v2/],
  ['not a URL', () => 'chamber.example/v2', /is not a URL/],
  [
    'a user and password',
    (o) => o.replace('http://', `http://admin:${PASSWORD}@`) + '/v2',
    /must not contain a user name or password/,
  ],
]

const credentials = { CHAMBERCTL_CLIENT_ID: 'ci', CHAMBERCTL_CLIENT_SECRET: 'secret' }

describe('a bad base URL is exit 2 before anything is sent', () => {
  const sources: [string, (url: string) => Promise<{ code: number; stderr: string }>, string][] = [
    [
      '--base-url',
      (url) => run(['chambers', 'list', '--base-url', url], credentials),
      '--base-url',
    ],
    [
      'CHAMBERCTL_BASE_URL',
      (url) => run(['chambers', 'list'], { ...credentials, CHAMBERCTL_BASE_URL: url }),
      'CHAMBERCTL_BASE_URL',
    ],
    [
      'a profile',
      (url) => {
        writeFileSync(
          configFile(configDir()),
          JSON.stringify({ profiles: { default: { base_url: url, client_id: 'ci' } } }),
        )
        return run(['chambers', 'list'], { CHAMBERCTL_TOKEN: 'tok' })
      },
      'profile default',
    ],
    [
      'login',
      (url) =>
        run(
          ['login', '--base-url', url, '--client-id', 'ci', '--client-secret-stdin'],
          {},
          { stdin: 'secret' },
        ),
      '--base-url',
    ],
  ]
  for (const [source, attempt, named] of sources) {
    for (const [what, make, said] of BAD) {
      it(`${source}: ${what}`, async () => {
        const url = make(origin())
        const { code, stderr } = await attempt(url)
        expect(code, stderr).toBe(2)
        expect(stderr).toMatch(said)
        expect(stderr).toContain(`${named}: base URL`)
        expect(stderr).not.toContain(PASSWORD)
        expect(listener().requests).toEqual([])
      })
    }
  }

  it('the user:password@ part is left out where the URL is shown', async () => {
    const url = `${origin().replace('http://', `http://admin:${PASSWORD}@`)}/v2`
    const { stderr } = await run(['chambers', 'list', '--base-url', url], credentials)
    expect(stderr).toContain(`base URL ${origin()}/v2 must not`)
  })
})

describe('good base URLs', () => {
  it('a trailing / is fine, and the requests go under the path as it is', async () => {
    const { code, stderr } = await run(['chambers', 'list', '--json'], {
      ...credentials,
      CHAMBERCTL_BASE_URL: `${origin()}/api/v2/`,
    })
    expect(code, stderr).toBe(0)
    const paths = listener().requests.map((r) => r.path)
    expect(paths[0]).toBe('/api/v2/auth/token')
    expect(paths[1]).toMatch(/^\/api\/v2\/chambers\?/)
  })

  it.each(['https://api.example.com/v1', 'http://127.0.0.1:8080/v2/', 'HTTPS://API.EXAMPLE/v2'])(
    '%s',
    (url) => expect(baseUrlProblem(url)).toBeUndefined(),
  )
})
