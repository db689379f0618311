// What bulk runs and plans list: one row per input row or fixture record.
import type { Descriptor } from './descriptor.js'
import { id, main, nested, state, text, whole } from './kinds.js'

// `members add --from-file`: one result per input row.
export const memberResults = {
  name: 'bulk results',
  fields: {
    row: whole(4),
    status: state('not_sent'.length),
    id: id(9),
    email: whole(32),
    error: nested,
    'error.status': whole(3),
    'error.code': whole(12),
    'error.message': main,
    'error.fields': nested,
    record: nested,
    input: nested,
  },
  columns: ['row', 'status', 'id', 'email', 'error.message'],
} as const satisfies Descriptor

// The rows that did not work out, as a terminal shows them (`line` where the input has lines).
export const memberFailures = {
  name: 'member failures',
  fields: {
    line: whole(4),
    row: whole(4),
    status: state('not_sent'.length),
    reason: main,
    // Less room than in a list: the reason is what a failure is read for.
    email: whole(24),
  },
  columns: ['row', 'status', 'reason', 'email'],
} as const satisfies Descriptor

// `seed`: each chamber of the fixture, then its members.
export const seedResults = {
  name: 'seed results',
  fields: {
    kind: whole('chamber'.length),
    chamber: whole(10),
    name: main,
    email: whole(32),
    id: id(9),
    status: state('not_sent'.length),
    'error.message': text(20),
  },
  columns: ['kind', 'chamber', 'name', 'email', 'id', 'status', 'error.message'],
} as const satisfies Descriptor

// The records that did not work out, as a terminal shows them: the reason before the e-mail.
export const seedFailures = {
  name: 'seed failures',
  fields: { ...seedResults.fields, reason: text(20) },
  columns: ['kind', 'chamber', 'name', 'status', 'reason', 'email'],
} as const satisfies Descriptor

// `seed --dry-run`: the order of creation.
export const seedPlan = {
  name: 'plan steps',
  fields: {
    step: whole(4),
    action: text(14),
    kind: whole('chamber'.length),
    chamber: whole(10),
    name: main,
    id: whole(9),
  },
  columns: ['step', 'action', 'kind', 'chamber', 'name', 'id'],
} as const satisfies Descriptor
