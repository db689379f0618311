// Deterministic demo data: the same records, ids and order on every start. Event dates are
// anchored on the current UTC day so that "upcoming" events stay in the future.
import type { Dataset, StoredChamber, StoredEvent, StoredMember } from './store.js'

export const DEMO_LARGE_CHAMBER_ID = 'ch_0001'
export const DEMO_LARGE_CHAMBER_MEMBERS = 260

const DAY = 86_400_000
const EPOCH = Date.UTC(2024, 0, 15, 9, 0, 0)

type ChamberSeed = {
  name: string
  type: 'hq' | 'subsidiary'
  hq?: number
  status: string
  address: Record<string, string>
  members: number
  events: number
}

const CHAMBERS: ChamberSeed[] = [
  {
    name: 'Berlin Chamber of Commerce',
    type: 'hq',
    status: 'active',
    address: { street: 'Fasanenstr. 85', city: 'Berlin', postal_code: '10623', country: 'DE' },
    members: DEMO_LARGE_CHAMBER_MEMBERS,
    events: 9,
  },
  {
    name: 'Hamburg Chamber of Commerce',
    type: 'hq',
    status: 'active',
    address: { street: 'Adolphsplatz 1', city: 'Hamburg', postal_code: '20457', country: 'DE' },
    members: 24,
    events: 5,
  },
  {
    name: 'Munich Chamber of Industry and Commerce',
    type: 'hq',
    status: 'active',
    address: { street: 'Max-Joseph-Str. 2', city: 'Munich', postal_code: '80333', country: 'DE' },
    members: 18,
    events: 4,
  },
  {
    name: 'Vienna Economic Chamber',
    type: 'hq',
    status: 'pending',
    address: { street: 'Stubenring 8-10', city: 'Vienna', postal_code: '1010', country: 'AT' },
    members: 6,
    events: 2,
  },
  {
    name: 'Potsdam Chamber',
    type: 'subsidiary',
    hq: 0,
    status: 'active',
    address: { street: 'Breite Str. 2a', city: 'Potsdam', postal_code: '14467', country: 'DE' },
    members: 12,
    events: 3,
  },
  {
    name: 'Cottbus Chamber',
    type: 'subsidiary',
    hq: 0,
    status: 'inactive',
    address: { city: 'Cottbus', postal_code: '03046', country: 'DE' },
    members: 4,
    events: 1,
  },
  {
    name: 'Lübeck Chamber',
    type: 'subsidiary',
    hq: 1,
    status: 'active',
    address: {
      street: 'Fackenburger Allee 2',
      city: 'Lübeck',
      postal_code: '23554',
      country: 'DE',
    },
    members: 9,
    events: 2,
  },
  {
    name: 'Augsburg Chamber',
    type: 'subsidiary',
    hq: 2,
    status: 'pending',
    address: { city: 'Augsburg', postal_code: '86150', country: 'DE' },
    members: 3,
    events: 0,
  },
  {
    name: 'Nuremberg Chamber',
    type: 'subsidiary',
    hq: 2,
    status: 'active',
    address: { street: 'Hauptmarkt 25', city: 'Nuremberg', postal_code: '90403', country: 'DE' },
    members: 7,
    events: 3,
  },
  {
    name: 'Graz Chamber',
    type: 'subsidiary',
    hq: 3,
    status: 'active',
    address: { city: 'Graz', postal_code: '8010', country: 'AT' },
    members: 0,
    events: 1,
  },
]

const FIRST = [
  'Ada',
  'Alan',
  'Barbara',
  'Claude',
  'Dorothy',
  'Edsger',
  'Frances',
  'Grace',
  'Hedy',
  'Ivan',
  'Jean',
  'Katherine',
  'Leslie',
  'Margaret',
  'Niklaus',
  'Olga',
  'Peter',
  'Radia',
  'Sophie',
  'Tim',
]
const LAST = [
  'Lovelace',
  'Turing',
  'Liskov',
  'Shannon',
  'Vaughan',
  'Dijkstra',
  'Allen',
  'Hopper',
  'Lamarr',
  'Sutherland',
  'Sammet',
  'Johnson',
  'Lamport',
  'Hamilton',
  'Wirth',
]
const MEMBERSHIP_TYPES = ['standard', 'premium', 'corporate', 'honorary', 'student']
const EVENT_TITLES = [
  'Annual General Assembly',
  'Export Day',
  'Founders Breakfast',
  'Digital Trade Forum',
  'Apprenticeship Fair',
  'Tax Update Seminar',
  'Summer Reception',
  'Supply Chain Roundtable',
  'Energy Costs Briefing',
]
const EVENT_STATUS_CYCLE = ['upcoming', 'past', 'upcoming', 'canceled', 'past'] as const

export function emptyDataset(): Dataset {
  return { chambers: [], members: [], events: [] }
}

export function demoDataset(now: number): Dataset {
  const today = Math.floor(now / DAY) * DAY
  const chambers: StoredChamber[] = []
  const members: StoredMember[] = []
  const events: StoredEvent[] = []
  let memberSeq = 0
  let eventSeq = 0

  CHAMBERS.forEach((seed, c) => {
    const id = chamberId(c)
    chambers.push({
      id,
      name: seed.name,
      type: seed.type,
      hq_id: seed.hq === undefined ? null : chamberId(seed.hq),
      address: seed.address,
      status: seed.status,
      created_at: new Date(EPOCH + c * 3 * DAY).toISOString(),
    })
    for (let i = 0; i < seed.members; i++)
      members.push(demoMember(id, domainOf(seed), i, ++memberSeq))
    for (let e = 0; e < seed.events; e++) {
      const n = ++eventSeq
      const status = EVENT_STATUS_CYCLE[e % EVENT_STATUS_CYCLE.length]!
      // Upcoming in the future, past in the past, canceled on either side.
      const offset =
        status === 'upcoming'
          ? 7 + e * 11
          : status === 'past'
            ? -(10 + e * 13)
            : e % 2
              ? 20 + e
              : -(20 + e)
      const starts = today + offset * DAY + 17 * 3_600_000
      events.push({
        id: 'ev_' + String(n).padStart(4, '0'),
        chamber_id: id,
        title: EVENT_TITLES[(c + e) % EVENT_TITLES.length]!,
        status,
        starts_at: new Date(starts).toISOString(),
        ends_at: new Date(starts + (e % 3 === 2 ? DAY : 3 * 3_600_000)).toISOString(),
        location: e % 4 === 1 ? null : `${seed.address.city}, ${seed.name}`,
        created_at: new Date(EPOCH + (c * 3 + e) * DAY).toISOString(),
      })
    }
  })
  return { chambers, members, events }
}

// The i-th member of a demo chamber, with the sandbox's n-th member id. Its e-mail address is
// unique in the chamber for every i.
export function demoMember(chamberId: string, domain: string, i: number, n: number): StoredMember {
  const first = FIRST[i % FIRST.length]!
  const last = LAST[Math.floor(i / FIRST.length) % LAST.length]!
  const round = Math.floor(i / (FIRST.length * LAST.length))
  return {
    id: 'mb_' + String(n).padStart(6, '0'),
    chamber_id: chamberId,
    name: `${first} ${last}`,
    email: `${first}.${last}${round ? round + 1 : ''}@${domain}`.toLowerCase(),
    phone: i % 4 === 3 ? null : `+49 30 ${String(1_000_000 + ((n * 7919) % 9_000_000))}`,
    membership_type: MEMBERSHIP_TYPES[(i * 3) % MEMBERSHIP_TYPES.length]!,
    status: i % 7 === 3 ? 'inactive' : i % 11 === 5 ? 'pending' : 'active',
    // Scrambled so that sorting by joined_at differs from the default (creation) order.
    joined_at: new Date(EPOCH + ((i * 37) % 400) * DAY + (i % 24) * 3_600_000).toISOString(),
  }
}

// The e-mail domain of the large demo chamber's members.
export const DEMO_LARGE_CHAMBER_DOMAIN = domainOf(CHAMBERS[0]!)

// ü written as an escape: the bundle stays ASCII (scripts/release/bundle.mjs).
function domainOf(seed: ChamberSeed): string {
  return seed.address.city!.toLowerCase().replace(/\u00fc/g, 'ue') + '.example.com'
}

function chamberId(index: number): string {
  return 'ch_' + String(index + 1).padStart(4, '0')
}
