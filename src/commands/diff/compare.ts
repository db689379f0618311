// The one comparison of a fixture with a live directory, behind `diff` and `seed --dry-run`.
// Records are matched as seed matches them (src/cmdutil/bulk/lookups.ts): a chamber by name
// (among several of one name, the one seed --skip-existing would take), a member by e-mail key
// within its matched chamber. Every field the fixture states is compared; what only the server
// has (ids, status, timestamps) is no difference.
//
// Memory: the server's chambers are listed first (they are few); then each fixture chamber's
// matched server chamber is read page by page against a Map of that one chamber's fixture
// members. Across chambers only keys are held: each key's matched id, and the ids matched.
import { idText, isAnswerId } from '../../api/answers.js'
import type { AnswerRecord } from '../../api/answers.js'
import type { Client } from '../../api/client.js'
import { emailKey } from '../../api/email.js'
import { pages } from '../../api/paginate.js'
import { ChamberIndex } from '../../cmdutil/bulk/lookups.js'
import { isPlainObject } from '../../util.js'
import { isDeepStrictEqual } from 'node:util'
import type { FixtureChamber, FixtureMember } from '../seed/fixture.js'

// One field the fixture and the server disagree on: `address.city`, `hq_id`. For `hq: <key>`,
// `fixture` is the id of the server's chamber matched for that key (null: none) and `hq` the key.
export type Difference = { field: string; fixture: unknown; server: unknown; hq?: string }

export type ChamberComparison = {
  chamber: FixtureChamber
  // The server's chamber of the same name, and its id; none: only in the fixture.
  match?: { id: string; record: AnswerRecord }
  // Whether seed --skip-existing would take the match for this chamber (also by type and HQ).
  seedSkips: boolean
  fields: Difference[]
}

// A member of a fixture chamber: `fixture` without `server`, only in the fixture; `server`
// without `fixture`, only on the server; both, matched (`fields` may be empty).
export type MemberComparison = {
  chamber: ChamberComparison
  fixture?: FixtureMember
  server?: AnswerRecord
  fields: Difference[]
}

export type ComparisonSink = {
  // Each fixture chamber in file order (a subsidiary listed before its HQ comes after it), then
  // its members, then chamberDone.
  chamber(result: ChamberComparison): void | Promise<void>
  member(result: MemberComparison): void | Promise<void>
  chamberDone(result: ChamberComparison): void | Promise<void>
  // Last, the server's chambers no fixture chamber matched, in the server's order.
  onlyOnServer(record: AnswerRecord): void | Promise<void>
}

export type CompareOptions = {
  // Whose members to compare: a matched chamber's are read from the server; an unmatched one's
  // are all only in the fixture.
  members: (chamber: ChamberComparison) => boolean
}

type Resolved = { id: string | undefined; seedSkips: boolean }

export async function compareDirectory(
  client: Client,
  fixture: AsyncIterable<FixtureChamber>,
  opts: CompareOptions,
  sink: ComparisonSink,
): Promise<void> {
  const index = await ChamberIndex.load(client)
  const resolved = new Map<string, Resolved>()
  const matched = new Set<string>()
  // Subsidiaries whose HQ the file has not reached yet, by that HQ's key.
  const waiting = new Map<string, FixtureChamber[]>()

  const visit = async (chamber: FixtureChamber): Promise<void> => {
    const hq = chamber.hq === undefined ? undefined : resolved.get(chamber.hq)
    const result = compareChamber(index, chamber, hq, matched)
    resolved.set(chamber.key, { id: result.match?.id, seedSkips: result.seedSkips })
    if (result.match) matched.add(result.match.id)
    await sink.chamber(result)
    if (opts.members(result)) await compareMembers(client, result, sink)
    await sink.chamberDone(result)
    const next = waiting.get(chamber.key)
    waiting.delete(chamber.key)
    for (const subsidiary of next ?? []) await visit(subsidiary)
  }

  for await (const chamber of fixture) {
    if (chamber.hq !== undefined && !resolved.has(chamber.hq)) {
      const list = waiting.get(chamber.hq)
      if (list) list.push(chamber)
      else waiting.set(chamber.hq, [chamber])
    } else await visit(chamber)
  }
  // An HQ the file never gave (a reader that checks references only at its end).
  for (const list of waiting.values()) for (const chamber of list) await visit(chamber)

  for (const record of index.records) {
    if (!isAnswerId(record.id) || !matched.has(idText(record.id))) await sink.onlyOnServer(record)
  }
}

function compareChamber(
  index: ChamberIndex,
  chamber: FixtureChamber,
  hq: Resolved | undefined,
  matched: ReadonlySet<string>,
): ChamberComparison {
  const hqId = chamber.hq === undefined ? (chamber.body.hq_id ?? undefined) : hq?.id
  // Seed's own match first; else the first of that name not matched yet, else the first.
  const seedMatch =
    chamber.hq !== undefined && hq?.seedSkips !== true
      ? undefined
      : index.match(chamber.body, hqId ?? undefined)
  const named = index
    .withName(chamber.body.name)
    .flatMap((record) => (isAnswerId(record.id) ? [{ id: idText(record.id), record }] : []))
  const match =
    named.find(({ record }) => record === seedMatch) ??
    named.find(({ id }) => !matched.has(id)) ??
    named[0]
  if (!match) return { chamber, seedSkips: false, fields: [] }
  const { record } = match
  const { hq_id, ...stated } = chamber.body
  const fields = differences(stated, record)
  if (chamber.hq !== undefined) {
    const fixture = hq?.id ?? null
    if (!same(fixture, record.hq_id)) {
      fields.push({ field: 'hq_id', fixture, server: record.hq_id ?? null, hq: chamber.hq })
    }
  } else if (hq_id !== undefined) fields.push(...differences({ hq_id }, record))
  return {
    chamber,
    match,
    seedSkips: seedMatch !== undefined,
    fields: fields.sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0)),
  }
}

async function compareMembers(
  client: Client,
  chamber: ChamberComparison,
  sink: ComparisonSink,
): Promise<void> {
  const fixture = new Map<string, FixtureMember>()
  for (const member of chamber.chamber.members) fixture.set(emailKey(member.body.email), member)
  if (chamber.match) {
    const list = (p: { page: number; perPage?: number }) =>
      client.members.list(chamber.match!.id, p)
    for await (const records of pages(list, { all: true })) {
      for (const server of records) {
        const key = typeof server.email === 'string' ? emailKey(server.email) : undefined
        const member = key === undefined ? undefined : fixture.get(key)
        if (member) fixture.delete(key!)
        const fields = member ? differences(member.body, server) : []
        await sink.member(
          member ? { chamber, fixture: member, server, fields } : { chamber, server, fields },
        )
      }
    }
  }
  for (const member of fixture.values()) await sink.member({ chamber, fixture: member, fields: [] })
}

// The fields the fixture states that the server holds otherwise; an address field by field.
function differences(stated: Record<string, unknown>, record: AnswerRecord): Difference[] {
  const found: Difference[] = []
  const compare = (field: string, fixture: unknown, server: unknown) => {
    if (fixture === undefined) return
    const equal =
      field === 'email' && typeof fixture === 'string' && typeof server === 'string'
        ? emailKey(fixture) === emailKey(server)
        : same(fixture, server)
    if (!equal) found.push({ field, fixture, server: server ?? null })
  }
  for (const [field, value] of Object.entries(stated)) {
    if (field === 'address' && isPlainObject(value)) {
      const address = isPlainObject(record.address) ? record.address : {}
      for (const [key, part] of Object.entries(value)) compare(`address.${key}`, part, address[key])
    } else compare(field, value, record[field])
  }
  return found
}

// Null and absent are both nothing; a number the server sent is the text of its digits, as
// export writes it.
function same(fixture: unknown, server: unknown): boolean {
  const plain = (value: unknown) =>
    value === undefined || value === null
      ? null
      : typeof value !== 'string' && isAnswerId(value)
        ? idText(value)
        : value
  return isDeepStrictEqual(plain(fixture), plain(server))
}
