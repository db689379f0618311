// The order of the fixture, decided by the data alone: the same directory gives the same file,
// and so does a copy of it made by seed, whose ids and creation order are new (seed creates in
// parallel). Ids come in only to tell apart records alike in everything written.
import type { ChamberDraft } from './entries.js'

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true })

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

// As a person reads names (case and accents aside, 2 before 10), then exactly, for a total order.
export function byName(a: string, b: string): number {
  return collator.compare(a, b) || byCodeUnits(a, b)
}

function byContent(a: ChamberDraft, b: ChamberDraft): number {
  return (
    byName(a.name, b.name) ||
    byCodeUnits(a.type, b.type) ||
    byCodeUnits(JSON.stringify(a.address), JSON.stringify(b.address)) ||
    byCodeUnits(a.hqId ?? '', b.hqId ?? '') ||
    byCodeUnits(a.id ?? '', b.id ?? '')
  )
}

// Each hq by name, followed by its subsidiaries by name; then the subsidiaries whose hq is not
// in the file. Seed would resolve the references in any order; this one also reads as a tree.
export function orderChambers(drafts: readonly ChamberDraft[]): ChamberDraft[] {
  const sorted = [...drafts].sort(byContent)
  const hqIds = new Set(
    sorted.flatMap((d) => (d.type === 'hq' && d.id !== undefined ? [d.id] : [])),
  )
  const branches = new Map<string, ChamberDraft[]>()
  const orphans: ChamberDraft[] = []
  for (const draft of sorted) {
    if (draft.type !== 'subsidiary') continue
    if (draft.hqId !== undefined && hqIds.has(draft.hqId)) {
      const list = branches.get(draft.hqId)
      if (list) list.push(draft)
      else branches.set(draft.hqId, [draft])
    } else orphans.push(draft)
  }
  const ordered: ChamberDraft[] = []
  for (const draft of sorted) {
    if (draft.type !== 'hq') continue
    ordered.push(draft)
    // A server that gave two hqs one id: their subsidiaries follow the first.
    if (draft.id === undefined) continue
    ordered.push(...(branches.get(draft.id) ?? []))
    branches.delete(draft.id)
  }
  return [...ordered, ...orphans]
}

// Members as the server sorts them by name, with each run of names it may count as equal (alike
// but for case and accents, `2` and `02`: the sandbox's collation) put in a fixed order, by name
// and then e-mail: the server leaves such ties in creation order. Fed a page at a time, it hands
// back the members whose place is settled and holds only the last run, which the next page may
// continue.
export class NameOrder<T extends { name: string; email: string }> {
  private run: T[] = []

  next(members: readonly T[]): T[] {
    const ready: T[] = []
    for (const member of members) {
      const last = this.run[this.run.length - 1]
      if (last && collator.compare(last.name, member.name) !== 0) {
        ready.push(...settled(this.run))
        this.run = []
      }
      this.run.push(member)
    }
    return ready
  }

  end(): T[] {
    const last = settled(this.run)
    this.run = []
    return last
  }
}

function settled<T extends { name: string; email: string }>(run: T[]): T[] {
  return run.sort(
    (a, b) =>
      byName(a.name, b.name) ||
      byCodeUnits(a.email.toLowerCase(), b.email.toLowerCase()) ||
      byCodeUnits(a.email, b.email),
  )
}
