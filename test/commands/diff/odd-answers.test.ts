// `diff` against a server that answers as a real one may (contract §9): numbers where the fixture
// has text, extra fields, fields left out, members over several pages of a size it chose.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { useFakeApi } from '../../helpers/fake-api.js'
import type { FakeRequest } from '../../helpers/fake-api.js'
import { useBareCommands } from '../../helpers/run-main.js'
import { lines } from '../../helpers/output.js'

const CHAMBERS = [
  {
    id: 7,
    name: 'Kiel',
    type: 'hq',
    address: { city: 'Kiel', postal_code: 24103, geo: { lat: 54.3 } },
    member_count: 2,
  },
  { id: 'c2', name: 'Lübeck', type: 'hq' },
]
// One member a page, whatever was asked: the client follows meta.
const MEMBERS = [
  { id: 1, email: 'A@x.de', name: 'A', membership_type: 'standard', nickname: 'a' },
  { id: 2, email: 'b@x.de', name: 'B', phone: null },
  { id: 3, email: 'c@x.de', name: 'C', membership_type: 'gold' },
]

function answer(request: FakeRequest) {
  const url = new URL(request.path, 'http://x')
  const page = Number(url.searchParams.get('page') ?? 1)
  if (url.pathname === '/v2/chambers') {
    return { body: { data: CHAMBERS, meta: { current_page: 1, total: 2, per_page: 100 } } }
  }
  if (url.pathname === '/v2/chambers/7/members') {
    const meta = { current_page: page, total: MEMBERS.length, per_page: 1 }
    return { body: { data: MEMBERS.slice(page - 1, page), meta } }
  }
  if (url.pathname === '/v2/chambers/c2/members') {
    return { body: { data: [], meta: { current_page: 1, total: 0, per_page: 100 } } }
  }
  return undefined
}

const api = useFakeApi({ answer })
const { runBare, tempDir } = useBareCommands()

const FIXTURE = {
  chambers: [
    {
      key: 'kiel',
      name: 'Kiel',
      type: 'hq',
      address: { city: 'Kiel', postal_code: '24103' },
      members: [
        { name: 'A', email: 'a@x.de', membership_type: 'standard' },
        { name: 'B', email: 'b@x.de', membership_type: 'standard' },
        { name: 'C', email: 'c@x.de', phone: null, membership_type: 'gold' },
      ],
    },
    { key: 'lubeck', name: 'Lübeck', type: 'hq', address: {} },
  ],
}

describe('diff against odd answers', () => {
  it('compares only what the fixture states: numbers as their digits, extras ignored', async () => {
    const file = path.join(tempDir(), 'f.json')
    writeFileSync(file, JSON.stringify(FIXTURE))
    const env = { CHAMBERCTL_BASE_URL: api().baseUrl('v2'), CHAMBERCTL_TOKEN: 'tok' }
    const { code, stdout, stderr } = await runBare(['diff', file, '--members'], { env })
    // B's membership_type is left out by the server: nothing, so it differs.
    expect(lines(stdout)).toEqual(['~\tmember\tkiel\tb@x.de\tmembership_type\tstandard\t'])
    expect(code, stderr).toBe(1)
    // Every page of members was read.
    const pages = api().requests.filter((r) => r.path.startsWith('/v2/chambers/7/members'))
    expect(pages).toHaveLength(3)
    const json = await runBare(['diff', file, '--members', '--json'], { env })
    expect(JSON.parse(json.stdout).members.changed).toEqual([
      {
        chamber: 'kiel',
        chamber_id: '7',
        email: 'b@x.de',
        id: '2',
        fields: [{ field: 'membership_type', fixture: 'standard', server: null }],
      },
    ])
  })
})
