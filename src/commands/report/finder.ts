// Finds the members that share an e-mail key (emailKey: any letter case, Unicode NFC, the
// domain's IDNA form) in two reads, holding keys only:
// 1. every selected member is read a page at a time and only a hash of its key is kept
//    (KeyIndex), with where each page of them was;
// 2. the hashes more than one member has are the candidates: only the pages that hold them are
//    read again, and their members compared by their exact keys, so two keys of one hash never
//    make a group. A page that no longer holds what it held (the directory changed between the
//    reads) has its whole chamber read again instead.
import type { AnswerRecord } from '../../api/answers.js'
import { emailKey } from '../../api/email.js'
import type { Hash } from './key-index.js'
import { KeyIndex } from './key-index.js'
import type { MemberPage } from './walk.js'

export type Source = {
  // Every selected member, a page at a time, in order.
  pages(): AsyncIterable<MemberPage>
  // One of those pages again, as it was asked for; undefined when its chamber is gone.
  page(where: Omit<MemberPage, 'records'>): Promise<AnswerRecord[] | undefined>
  // All the members of one chamber again.
  chamber(chamber: number): AsyncIterable<AnswerRecord[]>
}

// One member of a group: its chamber (by its place among those read) and what it says.
export type Copy = { chamber: number; id: unknown; name: unknown; email: string }
export type Group = { key: string; copies: Copy[] }

export type Found = {
  groups: Group[]
  // The members read, and the bytes the index of their keys held.
  members: number
  indexBytes: number
  // The members read again as candidates.
  candidates: number
}

// Pages of candidates read again at once.
const CONCURRENCY = 8

export async function findDuplicates(
  source: Source,
  opts: { hash?: Hash; progress?: (members: number) => void } = {},
): Promise<Found> {
  const index = new KeyIndex(opts.hash)
  // Where each page read was, and the position of its first key in the index.
  const read: Omit<MemberPage, 'records'>[] = []
  const starts: number[] = []
  let members = 0
  for await (const { records, ...where } of source.pages()) {
    read.push(where)
    starts.push(index.size)
    for (const record of records) {
      const email = emailOf(record)
      if (email !== undefined) index.add(emailKey(email))
    }
    members += records.length
    opts.progress?.(members)
  }
  const indexBytes = index.bytes
  const { hashes, positions } = index.candidates()
  const found = (copies: Copy[]) => ({
    groups: group(copies),
    members,
    indexBytes,
    candidates: positions.length,
  })
  if (positions.length === 0) return found([])

  // The pages holding candidates, with how many each holds, by chamber.
  const expected = new Map<number, number>()
  let page = 0
  for (const position of positions) {
    while (page + 1 < starts.length && starts[page + 1]! <= position) page++
    expected.set(page, (expected.get(page) ?? 0) + 1)
  }
  const byChamber = new Map<number, number[]>()
  for (const page of expected.keys()) {
    const chamber = read[page]!.chamber
    const pages = byChamber.get(chamber)
    if (pages) pages.push(page)
    else byChamber.set(chamber, [page])
  }

  const isCandidate = (key: string) => hashes.has(index.hash(key))
  const { default: pLimit } = await import('p-limit')
  const slot = pLimit(CONCURRENCY)
  const copies: Copy[] = []
  for (const [chamber, pages] of byChamber) {
    const again = await Promise.all(pages.map((page) => slot(() => source.page(read[page]!))))
    // Gone: the source has said so, and the report will say it is incomplete.
    if (again.some((records) => records === undefined)) continue
    const matched = again.map((records) => candidates(records!, chamber, isCandidate))
    if (matched.every((copies, i) => copies.length === expected.get(pages[i]!))) {
      copies.push(...matched.flat())
      continue
    }
    for await (const records of source.chamber(chamber)) {
      copies.push(...candidates(records, chamber, isCandidate))
    }
  }
  return found(copies)
}

function emailOf(record: AnswerRecord): string | undefined {
  return typeof record.email === 'string' ? record.email : undefined
}

function candidates(
  records: readonly AnswerRecord[],
  chamber: number,
  isCandidate: (key: string) => boolean,
): Copy[] {
  const copies: Copy[] = []
  for (const record of records) {
    const email = emailOf(record)
    if (email !== undefined && isCandidate(emailKey(email))) {
      copies.push({ chamber, id: record.id ?? null, name: record.name ?? null, email })
    }
  }
  return copies
}

// Copies of one exact key, two or more, by key; a member read twice (a page that shifted while
// it was read) counts once.
function group(copies: readonly Copy[]): Group[] {
  const byKey = new Map<string, Copy[]>()
  for (const copy of copies) {
    const key = emailKey(copy.email)
    const same = byKey.get(key)
    if (!same) {
      byKey.set(key, [copy])
      continue
    }
    const seen = same.some(
      (other) =>
        other.chamber === copy.chamber &&
        copy.id !== null &&
        JSON.stringify(other.id) === JSON.stringify(copy.id),
    )
    if (!seen) same.push(copy)
  }
  return [...byKey]
    .filter(([, same]) => same.length > 1)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, copies]) => ({ key, copies }))
}
