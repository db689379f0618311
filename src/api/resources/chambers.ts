import type { ChamberCreate } from '../schemas.js'
import { creates } from './descriptor.js'
import type { Creates, Descriptor } from './descriptor.js'
import { id, main, nested, state, text, time, whole } from './kinds.js'

export const chambers = {
  name: 'chambers',
  fields: {
    id: id(7),
    name: main,
    type: whole('subsidiary'.length),
    hq_id: whole(7),
    status: state('inactive'.length),
    address: nested,
    'address.street': text(10),
    'address.city': text(10),
    'address.postal_code': whole(5),
    'address.region': text(10),
    'address.country': whole(2),
    created_at: time,
    // With --include.
    members: nested,
    events: nested,
  },
  columns: ['id', 'name', 'type', 'hq_id', 'status', 'address.city', 'created_at'],
  // The ones the spec names come first; the rest are sandbox extensions (its manual).
  sort: ['name', 'created_at', 'id', 'type', 'status'],
  // `chambers create` and `seed`: a chamber is known by its name, trimmed, in any letter case.
  create: creates<ChamberCreate>({
    noun: 'chamber',
    schema: async () => (await import('../schemas.js')).chamberCreateSchema,
    path: () => '/chambers',
    send: (client, _parent, body, options) => client.chambers.create(body, options),
    list: (client) => (page) => client.chambers.list(page),
    key: { field: 'name', fold: (name) => name.trim().toLowerCase() },
  }),
} as const satisfies Descriptor<Creates<ChamberCreate>>
