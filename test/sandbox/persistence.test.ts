// `dataFile`: a SQLite database that has every write when its 201 arrives, and a new sandbox on
// the same file starts where the last one stopped.
import { readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { beforeEach, describe, expect, it } from 'vitest'
import { startSandbox } from '../../src/sandbox/server.js'
import { Store } from '../../src/sandbox/store.js'
import type { Dataset } from '../../src/sandbox/store.js'
import {
  BIG_CHAMBER,
  DAY,
  START,
  expectInvalidToken,
  fakeClock,
  ids,
  useTempDir,
  withSandbox,
} from './helpers.js'
import type { ApiClient, Rec } from './helpers.js'
import { inTimeZone } from '../helpers/time-zone.js'

const MEMBER = {
  name: 'Mary Jackson',
  email: 'mary.jackson@example.com',
  membership_type: 'student',
}

const dir = useTempDir()
let file: string
beforeEach(() => {
  file = join(dir(), 'sandbox.db')
})

// Runs `use` against a sandbox on the data file and closes it again, as a restart would.
function onFile<T>(use: (api: ApiClient) => Promise<T>, now = START, empty = false): Promise<T> {
  return withSandbox({ dataFile: file, now: fakeClock(now).now, empty }, (env) =>
    use(env.api('v2')),
  )
}

// What another connection to the database reads: the records of each table in creation order.
function readData(): { format: string; chambers: Rec[]; members: Rec[] } {
  const db = new DatabaseSync(file, { readOnly: true })
  try {
    const bodies = (table: string) =>
      db
        .prepare(`SELECT body FROM ${table} ORDER BY seq`)
        .all()
        .map((row) => JSON.parse(String(row.body)) as Rec)
    const format = db.prepare(`SELECT value FROM meta WHERE name = 'format'`).get()!.value
    return { format: String(format), chambers: bodies('chambers'), members: bodies('members') }
  } finally {
    db.close()
  }
}

// The database, and while it is open its write-ahead log and shared-memory index: mode 0600, and
// nothing else beside them.
async function expectPrivateFiles(open: boolean): Promise<void> {
  const names = ['sandbox.db', ...(open ? ['sandbox.db-shm', 'sandbox.db-wal'] : [])]
  expect((await readdir(dir())).sort()).toEqual(names)
  for (const name of names) expect((await stat(join(dir(), name))).mode & 0o777).toBe(0o600)
}

describe('a data file', () => {
  it('is created with the demo data and mode 0600 on the first start', async () => {
    const listed = await onFile((api) => api.listAll('/chambers'))
    await expectPrivateFiles(false)
    const data = readData()
    expect(data.format).toBe('chamberctl-sandbox/2')
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
      const data = readData()
      expect(data.chambers).toContainEqual(chamber)
      expect(data.members).toContainEqual(member)
      await expectPrivateFiles(true)
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
      // Another connection makes the next insert fail inside the sandbox's transaction.
      const db = new DatabaseSync(file)
      const fail = `CREATE TRIGGER fail BEFORE INSERT ON chambers BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`
      db.exec(fail)
      const reply = await api.post('/chambers', { name: 'Lost', type: 'hq', address: {} })
      db.exec('DROP TRIGGER fail')
      db.close()
      expect(reply.status).toBe(500)
      expect(reply.body).toEqual({ error: expect.stringMatching(/disk on fire/) })
      expect(await api.total('/chambers')).toBe(before)
      // The failed create took no id either.
      const next = await api.create('/chambers', { name: 'Next', type: 'hq', address: {} })
      expect(next.id).toBe(`ch_${String(before + 1).padStart(4, '0')}`)
    })
    const names = (await onFile((api) => api.listAll('/chambers'))).map((c) => c.name)
    expect(names).not.toContain('Lost')
  })

  it('is refused when it is the SQLite database of something else, and left alone', async () => {
    const db = new DatabaseSync(file)
    db.exec('CREATE TABLE notes (text TEXT)')
    db.close()
    const before = await readFile(file)
    await expect(startSandbox({ port: 0, dataFile: file })).rejects.toThrow(
      `${file} is a SQLite database, but not a chamberctl sandbox`,
    )
    expect(await readFile(file)).toEqual(before)
  })

  it('keeps issued tokens across a restart, until they expire, and only their digests', async () => {
    const ttl = 60
    const token = await withSandbox(
      { dataFile: file, now: fakeClock().now, tokenTtlSeconds: ttl },
      (env) => env.api('v2').accessToken(),
    )
    const clock = fakeClock()
    await withSandbox({ dataFile: file, now: clock.now, tokenTtlSeconds: ttl }, async (env) => {
      const api = env.api('v2')
      expect((await api.get('/chambers', {}, { token })).status).toBe(200)
      expectInvalidToken(await env.api('v1').get('/chambers', {}, { token }))
      clock.advance(ttl * 1000)
      expectInvalidToken(await api.get('/chambers', {}, { token }), /expired/)
    })
    expect((await readFile(file)).includes(token)).toBe(false)
  })
})

describe('a database made of records written by hand', () => {
  const odd = 'Ham/burg äö?#%'
  const handmade: Dataset = {
    chambers: [
      { id: odd, name: 'Odd', type: 'hq', created_at: '2024-01-01T00:00:00.000Z' },
      { id: 'ch_0041', name: 'Numbered', type: 'hq', created_at: '2024-01-02T00:00:00.000Z' },
    ],
    members: [
      { id: 'mb_000007', chamber_id: odd, email: 'a@example.com', joined_at: '2024-01-03T00:00Z' },
    ],
    events: [],
  }
  // The database a sandbox would make of these records as its initial ones.
  const create = (dataset: Dataset) => Store.open({ path: file, initial: () => dataset }).close()
  beforeEach(() => create(handmade))

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

  // Stored as instants when the records are stored: a sandbox in UTC+14 once took 17:00 for 03:00Z.
  it("reads an event's times without an offset as UTC, whatever the sandbox's time zone", async () => {
    const event = {
      id: 'ev_1',
      chamber_id: odd,
      starts_at: '2026-12-04T17:00:00',
      ends_at: '2026-12-04T20:00',
    }
    await rm(file)
    const path = `/chambers/${encodeURIComponent(odd)}/events`
    const listed = await inTimeZone('Pacific/Kiritimati', () => {
      create({ ...handmade, events: [event] })
      return onFile(async (api) => [
        ids(await api.listAll(path, { 'filter[date_to]': '2026-12-04T16:59:59Z' })),
        ids(await api.listAll(path, { 'filter[date_to]': '2026-12-04T17:00:00Z' })),
        ids(await api.listAll(path, { 'filter[date_from]': '2026-12-04T20:00:00Z' })),
        ids(await api.listAll(path, { 'filter[date_from]': '2026-12-04T20:00:01Z' })),
      ])
    })
    expect(listed).toEqual([[], ['ev_1'], ['ev_1'], []])
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

describe('a data file that is not a database', () => {
  it('makes startSandbox reject, and is left alone', async () => {
    const text = JSON.stringify({ format: 'chamberctl-sandbox/1', chambers: [] })
    await writeFile(file, text)
    await expect(startSandbox({ port: 0, dataFile: file })).rejects.toThrow(
      `${file} is not a SQLite database`,
    )
    expect(await readFile(file, 'utf8')).toBe(text)
  })
})
