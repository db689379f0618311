// The sandbox's records in memory, with optional persistence to a data file.
import * as z from 'zod/mini'
import { chamberSchema, eventSchema, memberSchema } from '../api/schemas.js'
import type { Chamber, Event, Member } from '../api/schemas.js'
import { GroupCommitter, readDataFile, writeFileAtomic } from './data-file.js'

export type StoredChamber = Chamber & { name: string; type: string; created_at: string }
export type StoredMember = Member & { chamber_id: string; email: string; joined_at: string }
export type StoredEvent = Event & { chamber_id: string; starts_at: string; ends_at: string }

export type Dataset = {
  chambers: StoredChamber[]
  members: StoredMember[]
  events: StoredEvent[]
}

const DATA_FORMAT = 'chamberctl-sandbox/1'

const dataFileSchema = z.object({
  format: z.literal(DATA_FORMAT),
  chambers: z.array(
    z.extend(chamberSchema, { name: z.string(), type: z.string(), created_at: z.string() }),
  ),
  members: z.array(
    z.extend(memberSchema, { chamber_id: z.string(), email: z.string(), joined_at: z.string() }),
  ),
  events: z.array(
    z.extend(eventSchema, { chamber_id: z.string(), starts_at: z.string(), ends_at: z.string() }),
  ),
})

const ID_PREFIX = { chamber: 'ch_', member: 'mb_', event: 'ev_' } as const
type Kind = keyof typeof ID_PREFIX

export class DataFileError extends Error {}

export class Store {
  private readonly chambers = new Map<string, StoredChamber>()
  private readonly members = new Map<string, StoredMember[]>()
  private readonly events = new Map<string, StoredEvent[]>()
  private readonly next: Record<Kind, number> = { chamber: 1, member: 1, event: 1 }
  private committer: GroupCommitter | undefined

  private constructor(dataset: Dataset) {
    for (const chamber of dataset.chambers) this.chambers.set(chamber.id, chamber)
    for (const member of dataset.members) this.listOf(this.members, member.chamber_id).push(member)
    for (const event of dataset.events) this.listOf(this.events, event.chamber_id).push(event)
    this.advance('chamber', dataset.chambers)
    this.advance('member', dataset.members)
    this.advance('event', dataset.events)
  }

  static inMemory(dataset: Dataset): Store {
    return new Store(dataset)
  }

  // Loads the data file, or creates it from `initial` when it does not exist yet.
  static async open(path: string, initial: () => Dataset): Promise<Store> {
    const text = await readDataFile(path)
    let store: Store
    if (text === undefined) {
      store = new Store(initial())
      await writeFileAtomic(path, store.serialize())
    } else {
      store = new Store(parseDataFile(path, text))
    }
    store.committer = new GroupCommitter(path, () => store.serialize())
    return store
  }

  listChambers(): StoredChamber[] {
    return [...this.chambers.values()]
  }

  getChamber(id: string): StoredChamber | undefined {
    return this.chambers.get(id)
  }

  membersOf(chamberId: string): StoredMember[] {
    return this.members.get(chamberId) ?? []
  }

  eventsOf(chamberId: string): StoredEvent[] {
    return this.events.get(chamberId) ?? []
  }

  nextId(kind: Kind): string {
    const n = this.next[kind]++
    return ID_PREFIX[kind] + String(n).padStart(kind === 'member' ? 6 : 4, '0')
  }

  // The record is visible at once; the promise resolves when it is durable. A failed write
  // removes it again, so nothing is reported created that a restart would not see.
  async addChamber(chamber: StoredChamber): Promise<void> {
    this.chambers.set(chamber.id, chamber)
    await this.persist(() => this.chambers.delete(chamber.id))
  }

  async addMember(member: StoredMember): Promise<void> {
    const list = this.listOf(this.members, member.chamber_id)
    list.push(member)
    await this.persist(() => list.splice(list.indexOf(member), 1))
  }

  // Resolves when the writes under way have settled; every accepted one is then on disk.
  async flush(): Promise<void> {
    await this.committer?.settled()
  }

  private async persist(rollback: () => void): Promise<void> {
    if (!this.committer) return
    try {
      await this.committer.commit()
    } catch (error) {
      rollback()
      throw error
    }
  }

  private serialize(): string {
    return JSON.stringify({
      format: DATA_FORMAT,
      chambers: this.listChambers(),
      members: [...this.members.values()].flat(),
      events: [...this.events.values()].flat(),
    })
  }

  private listOf<T>(map: Map<string, T[]>, key: string): T[] {
    let list = map.get(key)
    if (!list) map.set(key, (list = []))
    return list
  }

  // Ids the sandbox issued itself carry a counter; keep new ones above every loaded one.
  private advance(kind: Kind, records: { id: string }[]): void {
    const prefix = ID_PREFIX[kind]
    for (const { id } of records) {
      if (!id.startsWith(prefix)) continue
      const n = Number(id.slice(prefix.length))
      if (Number.isInteger(n) && n >= this.next[kind]) this.next[kind] = n + 1
    }
  }
}

function parseDataFile(path: string, text: string): Dataset {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new DataFileError(`${path} is not valid JSON`)
  }
  const parsed = dataFileSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new DataFileError(
      `${path} is not a chamberctl sandbox data file (${issue?.path.join('.') || 'format'}: ${issue?.message})`,
    )
  }
  return parsed.data
}
