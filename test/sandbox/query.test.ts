// v2's filter[...] and sort, checked against what this file computes from the unfiltered lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIG_CHAMBER, DAY, START, expectFieldError, ids, openSandbox } from './helpers.js'
import { sortedBy, withSandbox } from './helpers.js'
import type { ApiClient, Query, Rec, TestSandbox } from './helpers.js'
import { FAR_ZONES, inTimeZone } from '../helpers/time-zone.js'

const MEMBERS = `/chambers/${BIG_CHAMBER}/members`
const EVENTS = `/chambers/${BIG_CHAMBER}/events`

let env: TestSandbox
let api: ApiClient
const all: Record<string, Rec[]> = {}
beforeAll(async () => {
  env = await openSandbox()
  api = env.api('v2')
  for (const path of ['/chambers', MEMBERS, EVENTS]) all[path] = await api.listAll(path)
})
afterAll(() => env.close())

async function expectList(path: string, query: Query, expected: Rec[]): Promise<void> {
  const listed = await api.listAll(path, query)
  expect(ids(listed)).toEqual(ids(expected))
}

describe('filters', () => {
  it.each([
    ['/chambers', 'type', 'hq'],
    ['/chambers', 'type', 'subsidiary'],
    ['/chambers', 'status', 'active'],
    ['/chambers', 'status', 'inactive'],
    ['/chambers', 'status', 'pending'],
    [MEMBERS, 'status', 'active'],
    [MEMBERS, 'status', 'inactive'],
    [MEMBERS, 'status', 'pending'],
    [EVENTS, 'status', 'upcoming'],
    [EVENTS, 'status', 'past'],
    [EVENTS, 'status', 'canceled'],
  ])('GET %s with filter[%s]=%s keeps exactly the matching records', async (path, field, value) => {
    const expected = all[path]!.filter((record) => record[field] === value)
    expect(expected.length).toBeGreaterThan(0)
    expect(expected.length).toBeLessThan(all[path]!.length)
    await expectList(path, { [`filter[${field}]`]: value }, expected)
    const reply = await api.list(path, { [`filter[${field}]`]: value, per_page: 1 })
    expect(reply.body.meta.total).toBe(expected.length)
  })

  it('combines filters', async () => {
    const expected = all['/chambers']!.filter(
      (c) => c.type === 'subsidiary' && c.status === 'active',
    )
    expect(expected.length).toBeGreaterThan(0)
    const query = { 'filter[type]': 'subsidiary', 'filter[status]': 'active' }
    await expectList('/chambers', query, expected)
  })

  it.each([
    ['/chambers', 'filter[type]', 'branch'],
    ['/chambers', 'filter[status]', 'deleted'],
    [MEMBERS, 'filter[status]', 'upcoming'],
    [EVENTS, 'filter[status]', 'active'],
  ])('GET %s answers 422 for %s=%s', async (path, param, value) => {
    expectFieldError(await api.list(path, { [param]: value }), param)
  })
})

describe('event dates', () => {
  const today = new Date(Math.floor(START / DAY) * DAY)
  const day = (date: Date) => date.toISOString().slice(0, 10)
  const events = () => all[EVENTS]!
  const at = (event: Rec, field: string) => Date.parse(String(event[field]))

  it('filter[date_from] keeps the events that have not ended before it', async () => {
    const expected = events().filter((e) => at(e, 'ends_at') >= today.getTime())
    expect(expected.map((e) => e.status)).toContain('upcoming')
    expect(expected.map((e) => e.status)).not.toContain('past')
    await expectList(EVENTS, { 'filter[date_from]': day(today) }, expected)
  })

  it('filter[date_to] with a date keeps the events that start by the end of that day', async () => {
    const yesterday = new Date(today.getTime() - DAY)
    const expected = events().filter((e) => at(e, 'starts_at') < today.getTime())
    expect(expected.map((e) => e.status)).toContain('past')
    expect(expected.map((e) => e.status)).not.toContain('upcoming')
    await expectList(EVENTS, { 'filter[date_to]': day(yesterday) }, expected)
  })

  it('a one-day window finds an event that starts later that day', async () => {
    const event = events().find((e) => e.status === 'upcoming')!
    const date = String(event.starts_at).slice(0, 10)
    expect(event.starts_at).not.toMatch(/T00:00:00/)
    const listed = await api.listAll(EVENTS, { 'filter[date_from]': date, 'filter[date_to]': date })
    expect(ids(listed)).toContain(event.id)
    expect(listed.every((e) => String(e.starts_at).slice(0, 10) <= date)).toBe(true)
  })

  it('accepts date-times with an offset', async () => {
    const event = events().find((e) => e.status === 'past')!
    const from = String(event.starts_at).replace('Z', '+00:00')
    const listed = await api.listAll(EVENTS, { 'filter[date_from]': from, 'filter[date_to]': from })
    expect(ids(listed)).toEqual([event.id])
  })

  it.each([
    ['filter[date_from]', 'yesterday'],
    ['filter[date_from]', '18.06.2025'],
    ['filter[date_to]', '2025-13-45'],
    ['filter[date_to]', ''],
    ['filter[date_from]', '2026-02-30'],
  ])('answers 422 for the unparsable %s=%j', async (param, value) => {
    expectFieldError(await api.list(EVENTS, { [param]: value }), param)
  })

  // RFC 3339, the spec's format: date-time, has no date-time without an offset; read in the
  // sandbox's own zone it would be another instant on another machine.
  it.each(['2025-06-18T10:00', '2025-06-18T10:00:00', '2025-06-18T10:00:00.000'])(
    'answers 422 for the date-time %s without Z or an offset, in every time zone',
    async (value) => {
      for (const zone of FAR_ZONES) {
        await inTimeZone(zone, async () => {
          for (const param of ['filter[date_from]', 'filter[date_to]']) {
            const reply = await api.list(EVENTS, { [param]: value })
            expectFieldError(reply, param)
            expect(JSON.stringify(reply.body)).toMatch(/without Z or an offset/)
          }
        })
      }
    },
  )

  it('reads dates and date-times the same in every time zone: a date is its UTC day', async () => {
    const event = events().find((e) => e.status === 'upcoming')!
    const date = String(event.starts_at).slice(0, 10)
    const queries: Query[] = [
      { 'filter[date_from]': date, 'filter[date_to]': date },
      { 'filter[date_to]': String(event.starts_at) },
      { 'filter[date_to]': String(event.starts_at).replace('Z', '+14:00') },
      { 'filter[date_from]': `${date}T23:59:59-12:00` },
    ]
    const seen = async () =>
      Promise.all(queries.map(async (q) => ids(await api.listAll(EVENTS, q))))
    const expected = await inTimeZone('UTC', seen)
    expect(expected[0]).toContain(event.id)
    for (const zone of FAR_ZONES) expect(await inTimeZone(zone, seen)).toEqual(expected)
  })

  it('answers an empty list, saying why, when filter[date_to] is before filter[date_from]', async () => {
    const query = { 'filter[date_from]': '2025-06-10', 'filter[date_to]': '2025-06-09' }
    const reply = await api.list(EVENTS, query)
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ data: [], meta: { total: 0 } })
    expect(reply.headers.get('warning')).toBe(
      '299 chamberctl-sandbox "filter[date_to] is before filter[date_from]: no event matches"',
    )
    await withSandbox({ strict: true }, async (env) => {
      expectFieldError(await env.api('v2').list(EVENTS, query), 'filter[date_to]')
    })
  })
})

describe('sort', () => {
  it.each([
    ['/chambers', 'name'],
    ['/chambers', '-name'],
    ['/chambers', 'created_at'],
    ['/chambers', '-created_at'],
    ['/chambers', 'status'],
    [MEMBERS, 'name'],
    [MEMBERS, '-name'],
    [MEMBERS, 'joined_at'],
    [MEMBERS, '-joined_at'],
    [MEMBERS, 'membership_type'],
    [MEMBERS, '-membership_type'],
    [MEMBERS, '-status'],
    [MEMBERS, '-email'],
    [MEMBERS, '-id'],
    [EVENTS, 'starts_at'],
    [EVENTS, '-starts_at'],
  ])('GET %s?sort=%s returns the order computed here', async (path, sort) => {
    await expectList(path, { sort }, sortedBy(all[path]!, sort))
  })

  it.each([
    ['/chambers', '-name'],
    [MEMBERS, '-joined_at'],
    [EVENTS, 'starts_at'],
  ])('GET %s?sort=%s is not the default order', async (path, sort) => {
    expect(ids(sortedBy(all[path]!, sort))).not.toEqual(ids(all[path]!))
  })

  it('sorts before it pages', async () => {
    const expected = sortedBy(all[MEMBERS]!, 'name').slice(40, 60)
    const reply = await api.list(MEMBERS, { sort: 'name', page: 3 })
    expect(ids(reply.body.data)).toEqual(ids(expected))
  })

  it.each(['name', '-name', '-membership_type', '-status'])(
    'sorts the members of one status by %s, equal values in creation order',
    async (sort) => {
      const inactive = all[MEMBERS]!.filter((m) => m.status === 'inactive')
      await expectList(MEMBERS, { sort, 'filter[status]': 'inactive' }, sortedBy(inactive, sort))
    },
  )

  it('sorts the filtered records', async () => {
    const hqs = all['/chambers']!.filter((c) => c.type === 'hq')
    await expectList('/chambers', { sort: '-name', 'filter[type]': 'hq' }, sortedBy(hqs, '-name'))
  })

  it.each([
    ['/chambers', 'color'],
    ['/chambers', 'joined_at'],
    ['/chambers', '-'],
    [MEMBERS, 'starts_at'],
    [EVENTS, 'name'],
  ])('GET %s?sort=%s answers 422 on fields.sort', async (path, sort) => {
    expectFieldError(await api.list(path, { sort }), 'sort')
  })
})
