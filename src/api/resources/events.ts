import type { Descriptor } from './descriptor.js'
import { id, main, state, text, time } from './kinds.js'

export const events = {
  name: 'events',
  fields: {
    id: id(7),
    chamber_id: id(7),
    title: main,
    status: state('upcoming'.length),
    starts_at: time,
    ends_at: time,
    location: text(12),
    created_at: time,
  },
  columns: ['id', 'title', 'status', 'starts_at', 'ends_at', 'location'],
  sort: ['starts_at', 'ends_at', 'title', 'id', 'status'],
} as const satisfies Descriptor
