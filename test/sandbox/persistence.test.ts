// `dataFile`: every write is on disk when its 201 arrives, and a new sandbox on the same file
// starts where the last one stopped.
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { startSandbox } from '../../src/sandbox/server.js'
import { BIG_CHAMBER, DAY, START, fakeClock, ids, useTempDir, withSandbox } from './helpers.js'
import type { ApiClient, Rec } from './helpers.js'

const MEMBER = {
  name: 'Mary Jackson',
  email: 'mary.jackson@example.com',
  membership_type: 'student',
}

const dir = useTempDir()
let file: string
beforeEach(() => {
  file = join(dir(), 'sandbox.json')
})

// Runs `use` against a sandbox on the data file and closes it again, as a restart would.
function onFile<T>(use: (api: ApiClient) => Promise<T>, now = START, empty = false): Promise<T> {
  return withSandbox({ dataFile: file, now: fakeClock(now).now, empty }, (env) =>
    use(env.api('v2')),
  )
}

async function readData(): Promise<{ format: string; chambers: Rec[]; members: Rec[] }> {
  return JSON.parse(await readFile(file, 'utf8'))
}

async function expectPrivateFile(): Promise<void> {
  expect((await stat(file)).mode & 0o777).toBe(0o600)
  // Atomic writes go through a temporary file, which must not be left behind.
  expect(await readdir(dir())).toEqual(['sandbox.json'])
}

describe('a data file', () => {
  it('is created with the demo data and mode 0600 on the first start', async () => {
    const listed = await onFile((api) => api.listAll('/chambers'))
    await expectPrivateFile()
    const data = await readData()
    expect(data.format).toBe('chamberctl-sandbox/1')
    expect(data.chambers).toEqual(listed)
    expect(data.members.length).toBeGreaterThanOrEqual(250)
  })

  it('is loaded, not regenerated, on the next start', async () => {
    const events = `/chambers/${BIG_CHAMBER}/events`
    const first = await onFile((api) => api.listAll(events))
    // Demo event dates follow the clock; loaded ones must not.
    const second = await onFile((api) => api.listAll(events), START + 40 * DAY)
    expect(second).toEqual(first)
  })

  it('holds a created chamber and member after close() and a restart', async () => {
    const [chamber, member, demoMember] = await onFile(async (api) => {
      const chamber = await api.create('/chambers', { name: 'Kiel', type: 'hq', address: {} })
      return [
        chamber,
        await api.create(`/chambers/${chamber.id}/members`, MEMBER),
        await api.create(`/chambers/${BIG_CHAMBER}/members`, MEMBER),
      ]
    })
    await onFile(async (api) => {
      expect((await api.get(`/chambers/${chamber.id}`)).body).toEqual(chamber)
      expect(await api.listAll(`/chambers/${chamber.id}/members`)).toEqual([member])
      const members = await api.listAll(`/chambers/${BIG_CHAMBER}/members`)
      expect(members.at(-1)).toEqual(demoMember)
      // Ids go on above the loaded ones.
      const next = await api.create('/chambers', { name: 'Flensburg', type: 'hq', address: {} })
      expect(next.id > chamber.id).toBe(true)
      const nextMember = await api.create(`/chambers/${chamber.id}/members`, {
        ...MEMBER,
        email: 'another@example.com',
      })
      expect(ids(members)).not.toContain(nextMember.id)
      expect(nextMember.id > demoMember.id).toBe(true)
    })
  })

  it('has every write on disk by the time its 201 arrives', async () => {
    await onFile(async (api) => {
      const chamber = await api.create('/chambers', { name: 'Rostock', type: 'hq', address: {} })
      const member = await api.create(`/chambers/${chamber.id}/members`, MEMBER)
      const data = await readData()
      expect(data.chambers).toContainEqual(chamber)
      expect(data.members).toContainEqual(member)
      await expectPrivateFile()
    })
  })

  it('wins over `empty` and over the demo data', async () => {
    const only = await onFile(
      (api) => api.create('/chambers', { name: 'Solo', type: 'hq', address: {} }),
      START,
      true,
    )
    expect(await onFile((api) => api.listAll('/chambers'))).toEqual([only])
  })

  it('keeps nothing that a failed write answered 500 for', async () => {
    await onFile(async (api) => {
      const before = await api.total('/chambers')
      await rm(dir(), { recursive: true })
      const reply = await api.post('/chambers', { name: 'Lost', type: 'hq', address: {} })
      expect(reply.status).toBe(500)
      expect(reply.body).toEqual({ error: expect.any(String) })
      expect(await api.total('/chambers')).toBe(before)
      await mkdir(dir())
    })
    const names = (await onFile((api) => api.listAll('/chambers'))).map((c) => c.name)
    expect(names).not.toContain('Lost')
  })
})

describe('a data file written by hand', () => {
  const odd = 'Ham/burg äö?#%'
  const handmade = {
    format: 'chamberctl-sandbox/1',
    chambers: [
      { id: odd, name: 'Odd', type: 'hq', created_at: '2024-01-01T00:00:00.000Z' },
      { id: 'ch_0041', name: 'Numbered', type: 'hq', created_at: '2024-01-02T00:00:00.000Z' },
    ],
    members: [
      { id: 'mb_000007', chamber_id: odd, email: 'a@example.com', joined_at: '2024-01-03T00:00Z' },
    ],
    events: [],
  }
  beforeEach(() => writeFile(file, JSON.stringify(handmade)))

  it('reaches ids of any characters through percent-encoding, Location included', async () => {
    await onFile(async (api) => {
      const path = `/chambers/${encodeURIComponent(odd)}`
      expect((await api.get(path)).body).toMatchObject({ id: odd, name: 'Odd' })
      expect(ids(await api.listAll(`${path}/members`))).toEqual(['mb_000007'])
      const reply = await api.post(`${path}/members`, MEMBER)
      expect(reply.status).toBe(201)
      expect(reply.headers.get('location')).toBe(`/v2${path}/members/${reply.body.id}`)
      expect((await api.follow(reply)).body).toEqual(reply.body)
    })
  })

  it('numbers new records above the ones it holds', async () => {
    const [chamber, member] = await onFile(async (api) => [
      await api.create('/chambers', { name: 'Next', type: 'hq', address: {} }),
      await api.create('/chambers/ch_0041/members', MEMBER),
    ])
    expect(chamber.id).toBe('ch_0042')
    expect(member.id).toBe('mb_000008')
  })
})

describe('a data file that is not one', () => {
  it.each([
    ['not JSON', '{"format": "chamberctl-sandbox/1", "chambers": [', /not valid JSON/],
    ['another format', JSON.stringify({ format: 'other/2', chambers: [] }), /not a chamberctl/],
    [
      'a chamber without an id',
      JSON.stringify({ format: 'chamberctl-sandbox/1', chambers: [{}], members: [], events: [] }),
      /not a chamberctl sandbox data file \(chambers/,
    ],
  ])('makes startSandbox reject when it is %s, and is left alone', async (_, text, message) => {
    await writeFile(file, text)
    const start = startSandbox({ port: 0, dataFile: file })
    await expect(start).rejects.toThrow(message)
    await expect(start).rejects.toThrow(file)
    expect(await readFile(file, 'utf8')).toBe(text)
  })
})
