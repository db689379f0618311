// Marks (store.ts, MARK_EVERY) survive inserts, moved past each new record: with inserts and
// pages asked for out of turn interleaved, every page must be the slice of the whole list, read
// from the start in one page (which no mark or resume point serves), of the same order and filter.
import { describe, expect, it } from 'vitest'
import { Store } from '../../src/sandbox/store.js'
import type { ChamberRow, Sort } from '../../src/sandbox/store.js'
import { demoMember, emptyDataset } from '../../src/sandbox/demo-data.js'
import fc from '../helpers/fast-check.js'

const CHAMBER = 'ch_0001'
const MEMBERS = 2300
const ALL = 1_000_000

type Step =
  | { insert: string; status: string }
  | { depth: number; perPage: number; sort?: Sort; status?: string }

// Few lists, so that the marks of one are used again after inserts; descending orders use none.
const sort = fc.constantFrom<Sort | undefined>(
  undefined,
  { field: 'name', descending: false },
  { field: 'joined_at', descending: false },
  { field: 'name', descending: true },
)
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    insert: fc.constantFrom('Aaron Aardvark', 'Mia Müller', 'Zoe Zulu', 'Émile Ørsted'),
    status: fc.constantFrom('active', 'pending'),
  }),
  fc.record({
    depth: fc.double({ min: 0, max: 1, noNaN: true }),
    perPage: fc.constantFrom(7, 100, 250),
    sort,
    status: fc.constantFrom(undefined, 'active'),
  }),
)

async function filledStore(): Promise<{ store: Store; chamber: ChamberRow }> {
  const dataset = emptyDataset()
  dataset.chambers.push({
    id: CHAMBER,
    name: 'Deep',
    type: 'hq',
    hq_id: null,
    address: { street: 'S 1', city: 'Berlin', postal_code: '10115', country: 'DE' },
    status: 'active',
    created_at: '2020-01-01T00:00:00.000Z',
  } as never)
  const store = Store.open({ initial: () => dataset })
  const chamber = store.getChamber(CHAMBER)!
  store.addMembers([chamber], MEMBERS, (_, i, n) => demoMember(CHAMBER, 'deep.example', i, n))
  return { store, chamber: store.getChamber(CHAMBER)! }
}

describe('pages deep into a list with inserts between them', () => {
  it('are slices of the list read whole', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 40 }), async (steps) => {
        const { store, chamber } = await filledStore()
        try {
          let inserted = 0
          for (const s of steps) {
            if ('insert' in s) {
              const email = `new.${inserted++}@deep.example`
              store.addMember(chamber, (id) => ({
                ...demoMember(CHAMBER, 'deep.example', 0, 0),
                id,
                name: s.insert,
                email,
                status: s.status,
              }))
              continue
            }
            const whole = store.listMembers(chamber, s.status, {
              page: 1,
              perPage: ALL,
              sort: s.sort,
            })
            const pages = Math.max(1, Math.ceil(whole.total / s.perPage))
            const page = 1 + Math.min(pages - 1, Math.floor(s.depth * pages))
            const found = store.listMembers(chamber, s.status, {
              page,
              perPage: s.perPage,
              sort: s.sort,
            })
            const ids = (records: { id: string }[]) => records.map((record) => record.id)
            expect(ids(found.records)).toEqual(
              ids(whole.records.slice((page - 1) * s.perPage, page * s.perPage)),
            )
          }
        } finally {
          store.close()
        }
      }),
      { numRuns: 30 },
    )
  })
})
