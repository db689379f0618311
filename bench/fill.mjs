// Fills a sandbox database for bench/million.mjs with the sandbox's own store: CHAMBERS chambers
// of PER_CHAMBER demo members each (src/sandbox/demo-data.ts), inserted as --demo-members inserts
// them (one transaction, the sort indexes built once), so that the sandbox serves them as records
// created through the API. bench/million.mjs bundles it as bench/run.mjs bundles undici-get.mjs.
// Usage: node fill.mjs FILE CHAMBERS PER_CHAMBER
import { demoMember } from '../src/sandbox/demo-data.ts'
import { Store } from '../src/sandbox/store.ts'

const [file, chambers, perChamber] = process.argv.slice(2)
const id = (c) => `ch_${String(c + 1).padStart(4, '0')}`
const store = Store.open({
  path: file,
  initial: () => ({
    chambers: Array.from({ length: Number(chambers) }, (_, c) => ({
      id: id(c),
      name: `Bench Chamber ${c + 1}`,
      type: 'hq',
      hq_id: null,
      address: { city: `City ${c + 1}`, country: 'DE' },
      status: 'active',
      created_at: '2026-01-01T00:00:00.000Z',
    })),
    members: [],
    events: [],
  }),
})
try {
  const rows = Array.from({ length: Number(chambers) }, (_, c) => store.getChamber(id(c)))
  store.addMembers(rows, Number(perChamber), (chamber, i, n) =>
    demoMember(chamber.record.id, `${chamber.record.id.replace('_', '-')}.bench.example`, i, n),
  )
} finally {
  store.close()
}
