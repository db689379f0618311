// The records the reports print, declared as the API's resources are (src/api/resources): their
// fields for --fields and their table columns in order of importance.
//
// A report row is flat: the chamber's id, name and city as `chamber_id`, `chamber_name` and
// `chamber_city` beside the member's own fields. The same names are the CSV header, the JSON key,
// the --fields name and the jq path (`.chamber_city`): a spreadsheet gets no JSON-encoded cell,
// jq no key with a dot in it, and `chamber_id` is the name the member record already uses.
import type { Descriptor } from '../../api/resources/index.js'
import { members } from '../../api/resources/index.js'
import { id, main, text, whole } from '../../api/resources/kinds.js'
import type { AnswerRecord } from '../../api/answers.js'
import type { ChamberRef } from './walk.js'

const { chamber_id: _ownChamberId, ...memberFields } = members.fields

export const memberRows = {
  name: 'members',
  fields: {
    chamber_id: id(7),
    chamber_name: text(12),
    chamber_city: text(8),
    ...memberFields,
  },
  columns: ['chamber_id', 'chamber_name', 'chamber_city', ...members.columns],
  importance: [
    'chamber_id',
    'id',
    'name',
    'email',
    'chamber_name',
    'status',
    'chamber_city',
    'phone',
    'membership_type',
    'joined_at',
  ],
} as const satisfies Descriptor

// The member's fields after the chamber's, which are the chamber's as listed (a field of the same
// name in the member record is replaced, in its place at the front).
export function memberRow(chamber: ChamberRef, member: AnswerRecord): AnswerRecord {
  // A spread, not Object.assign: a key named __proto__ (legal in JSON) stays a plain key.
  const row: AnswerRecord = { chamber_id: null, chamber_name: null, chamber_city: null, ...member }
  row.chamber_id = chamber.id
  row.chamber_name = chamber.name
  row.chamber_city = chamber.city
  return row
}

// One copy of a shared e-mail: the key it shares, where it lives and the address as stored.
export const duplicateRows = {
  name: 'duplicates',
  fields: {
    key: whole(24),
    chamber_id: id(7),
    chamber_name: text(12),
    member_id: id(9),
    name: main,
    email: whole(24),
  },
  columns: ['key', 'chamber_id', 'chamber_name', 'member_id', 'name', 'email'],
  // The address as stored shows how the copies differ: it goes before the names.
  importance: ['key', 'chamber_id', 'member_id', 'email', 'name', 'chamber_name'],
} as const satisfies Descriptor
