import { emailKey } from '../email.js'
import { pathSegment } from '../paths.js'
import type { MemberCreate } from '../schemas.js'
import { creates } from './descriptor.js'
import type { Creates, Descriptor } from './descriptor.js'
import { id, main, state, time, whole } from './kinds.js'
import { memberFailures, memberResults } from './results.js'

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
  // `members add`, one or many: a member is known by its e-mail in its chamber.
  create: creates<MemberCreate>({
    noun: 'member',
    schema: async () => (await import('../schemas.js')).memberCreateSchema,
    under: 'chamber',
    path: (chamberId = '') => `/chambers/${pathSegment(chamberId, 'chamber id')}/members`,
    send: (client, chamberId = '', body, options) => client.members.add(chamberId, body, options),
    list:
      (client, chamberId = '') =>
      (page) =>
        client.members.list(chamberId, page),
    key: { field: 'email', fold: emailKey },
    bulk: { results: memberResults, failures: memberFailures },
  }),
} as const satisfies Descriptor<Creates<MemberCreate>>
