import type { Descriptor } from './descriptor.js'
import { id, main, state, time, whole } from './kinds.js'

export const members = {
  name: 'members',
  fields: {
    id: id(9),
    name: main,
    // A typical address: what a width claims for the column; a longer one is still shown whole.
    email: whole(24),
    phone: whole(14),
    membership_type: whole('corporate'.length),
    status: state('inactive'.length),
    joined_at: time,
    chamber_id: id(7),
  },
  columns: ['id', 'name', 'email', 'phone', 'membership_type', 'status', 'joined_at'],
  // The status before the phone, so that 80 columns show it.
  importance: ['id', 'name', 'email', 'status', 'phone', 'membership_type', 'joined_at'],
  sort: ['name', 'joined_at', 'id', 'email', 'membership_type', 'status'],
} as const satisfies Descriptor
