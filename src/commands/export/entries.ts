// What of a server's record goes into the fixture: exactly the fields seed sends, checked with
// the create schemas seed checks them with, so that seed reads back whatever export writes.
// Fields the server makes (ids, timestamps, status) are left out quietly; any other field seed
// cannot send is left out and counted, so that the user learns what the copy lacks.
import { idText, isAnswerId } from '../../api/answers.js'
import type { AnswerRecord } from '../../api/answers.js'
import { chamberCreateSchema, formatPath, memberCreateSchema } from '../../api/schemas.js'
import type * as z from 'zod/mini'

export type Address = Record<string, string>

export type ChamberDraft = {
  // The server's id, to find its subsidiaries and members by; never written.
  id: string | undefined
  name: string
  type: 'hq' | 'subsidiary'
  hqId?: string
  address: Address
}

export type MemberEntry = {
  name: string
  email: string
  phone?: string
  membership_type: string
}

// Either the entry and the fields of the record it could not take, or why seed could not
// create the record at all.
export type Converted<T> = { entry: T; leftOut: string[] } | { problem: string }

// Made by the server (spec §3), so neither sent nor worth a mention. `status` too: the spec's
// creates take none, and every record is created with the server's default.
const CHAMBER_MADE = ['id', 'status', 'created_at']
const MEMBER_MADE = ['id', 'chamber_id', 'status', 'joined_at']
const CHAMBER_SENT = ['name', 'type', 'hq_id', 'address']
const MEMBER_SENT = ['name', 'email', 'phone', 'membership_type']
// Made once: a million members are checked against them.
const CHAMBER_KNOWN = new Set([...CHAMBER_MADE, ...CHAMBER_SENT])
const MEMBER_KNOWN = new Set([...MEMBER_MADE, ...MEMBER_SENT])
// The sandbox's address fields (`chamberctl sandbox --help`, Records) in its order; other keys
// follow by name.
const ADDRESS_ORDER = ['street', 'city', 'postal_code', 'region', 'country']

const UNUSABLE = Symbol('unusable')

// A value as the text seed sends: numbers keep their digits (a postal code or phone a server
// sent as a number), null and absent are nothing, anything else cannot be sent as text.
function text(value: unknown): string | undefined | typeof UNUSABLE {
  if (value === null || value === undefined) return undefined
  if (typeof value === 'string') return value
  // Finite numbers, and those too long for a double with every digit the server wrote.
  return isAnswerId(value) ? idText(value) : UNUSABLE
}

function extraFields(record: AnswerRecord, known: ReadonlySet<string>): string[] {
  const extra: string[] = []
  for (const key of Object.keys(record)) if (!known.has(key) && record[key] != null) extra.push(key)
  return extra
}

export function chamberDraft(record: AnswerRecord): Converted<ChamberDraft> {
  const leftOut = extraFields(record, CHAMBER_KNOWN)
  const name = text(record.name)
  const hqId = text(record.hq_id)
  const address = addressOf(record.address, leftOut)
  const body = {
    name: name === UNUSABLE ? record.name : name,
    type: record.type,
    address,
    ...(record.type === 'subsidiary' && hqId !== UNUSABLE ? { hq_id: hqId } : {}),
  }
  // An hq cannot name an hq: whatever it says there is not sent.
  if (record.type === 'hq' && hqId !== undefined && hqId !== '') leftOut.push('hq_id')
  const parsed = chamberCreateSchema.safeParse(body)
  if (!parsed.success) return { problem: problemOf(parsed.error) }
  return {
    entry: {
      id: isAnswerId(record.id) ? idText(record.id) : undefined,
      name: parsed.data.name,
      type: parsed.data.type,
      ...(parsed.data.type === 'subsidiary' ? { hqId: parsed.data.hq_id! } : {}),
      address,
    },
    leftOut,
  }
}

// The fields of an address that are text; null ones are nothing, others are left out. A chamber
// without an address gets an empty one, which every create accepts.
function addressOf(value: unknown, leftOut: string[]): Address {
  if (value === null || value === undefined) return {}
  if (typeof value !== 'object' || Array.isArray(value)) {
    leftOut.push('address')
    return {}
  }
  const fields = value as AnswerRecord
  const address: Address = {}
  const keys = Object.keys(fields).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
  for (const key of keys) {
    const field = text(fields[key])
    if (field === UNUSABLE) leftOut.push(`address.${key}`)
    else if (field !== undefined) address[key] = field
  }
  return address
}

function rank(key: string): number {
  const index = ADDRESS_ORDER.indexOf(key)
  return index === -1 ? ADDRESS_ORDER.length : index
}

export function memberEntry(record: AnswerRecord): Converted<MemberEntry> {
  const leftOut = extraFields(record, MEMBER_KNOWN)
  const body: Record<string, unknown> = {}
  for (const field of MEMBER_SENT) {
    const value = text(record[field])
    if (value === undefined) continue
    if (value === UNUSABLE) {
      // The required ones are reported by the schema; an optional one is only left out.
      if (field === 'phone') leftOut.push(field)
      else body[field] = record[field]
    } else body[field] = value
  }
  const parsed = memberCreateSchema.safeParse(body)
  if (!parsed.success) return { problem: problemOf(parsed.error) }
  const { name, email, phone, membership_type } = parsed.data
  return {
    entry: { name, email, ...(typeof phone === 'string' ? { phone } : {}), membership_type },
    leftOut,
  }
}

function problemOf(error: z.core.$ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? formatPath(issue.path) : 'record'} ${issue.message}`)
    .join(', ')
}
