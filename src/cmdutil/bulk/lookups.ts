// What a bulk run asks the server before it sends: that the chamber it writes into exists, and
// which records are already there, by the natural key the resource declares (a member by e-mail
// in its chamber, compared as emailKey compares them, as the sandbox does; a chamber by name, and
// for seed by type and HQ): what --skip-existing skips, how a record an earlier run created is
// confirmed, and how one of unknown outcome is found before it is sent again. One list of a
// parent's records serves every row of it, however many.
import { idText, isAnswerId } from '../../api/answers.js'
import type { AnswerId, AnswerRecord, Page } from '../../api/answers.js'
import type { Client, PageParams, WriteOptions } from '../../api/client.js'
import { ApiError } from '../../api/errors.js'
import { paginate } from '../../api/paginate.js'
import { chambers } from '../../api/resources/index.js'
import type { Creates } from '../../api/resources/index.js'
import type { ChamberCreate } from '../../api/schemas.js'

// Before the first row: a chamber that is not there fails the run (exit 3) with nothing sent.
// `what` names the reference in the input (`chambers[2].hq_id`), when it came from one.
export async function requireChamber(client: Client, chamberId: string, what?: string) {
  try {
    await client.chambers.get(chamberId)
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'not_found') throw error
    throw new ApiError(
      'not_found',
      `${what ? `${what}: ` : ''}chamber ${chamberId} not found at ${client.baseUrl}; nothing was sent`,
      { status: error.status },
    )
  }
}

// The records of one kind the server holds, per parent, read once each.
export class RecordIndex<B> {
  private readonly parents = new Map<string, Promise<AnswerRecord[]>>()

  constructor(
    private readonly client: Client,
    readonly declared: Creates<B>,
  ) {}

  send(parent: string | undefined, body: B, options: WriteOptions): Promise<AnswerRecord> {
    return this.declared.send(this.client, parent, body, options)
  }

  // Every record under the parent (none: the resource's top level).
  records(parent?: string): Promise<AnswerRecord[]> {
    let found = this.parents.get(parent ?? '')
    if (!found) {
      found = collect(this.declared.list(this.client, parent))
      this.parents.set(parent ?? '', found)
    }
    return found
  }

  // The record under the parent whose natural key is this value (the last one listed, when the
  // server holds several): its id (null when the server gave none), or undefined when there is
  // none.
  async find(parent: string | undefined, value: unknown): Promise<AnswerId | null | undefined> {
    const wanted = this.keyOf(value)
    if (wanted === undefined) return undefined
    let id: AnswerId | null | undefined
    for (const record of await this.records(parent)) {
      if (this.keyOf(record[this.declared.key.field]) === wanted) {
        id = isAnswerId(record.id) ? record.id : null
      }
    }
    return id
  }

  // A key's value compared as the resource compares it; a value that is no text matches nothing.
  keyOf(value: unknown): string | undefined {
    return typeof value === 'string' && value !== '' ? this.declared.key.fold(value) : undefined
  }
}

async function collect(list: (page: PageParams) => Promise<Page>): Promise<AnswerRecord[]> {
  const records: AnswerRecord[] = []
  for await (const record of paginate(list, { all: true })) records.push(record)
  return records
}

// The chambers already there, for seed: a chamber matches by name and type (when the server gives
// one), a subsidiary also by its HQ.
export class ChamberIndex {
  private constructor(
    private readonly index: RecordIndex<ChamberCreate>,
    private readonly known: AnswerRecord[],
  ) {}

  static async load(client: Client): Promise<ChamberIndex> {
    const index = new RecordIndex(client, chambers.create)
    return new ChamberIndex(index, await index.records())
  }

  // Every chamber the server listed.
  get records(): readonly AnswerRecord[] {
    return this.known
  }

  // The chambers of this name, in the server's order.
  withName(name: string): AnswerRecord[] {
    const wanted = this.index.keyOf(name)
    return this.known.filter((c) => this.index.keyOf(c.name) === wanted)
  }

  named(name: string): boolean {
    return this.withName(name).length > 0
  }

  // A match without a usable id is no use to its members: it is created anew. `recorded`: the id
  // an earlier run created it with, which must still be there under the same name.
  find(body: ChamberCreate, hqId: string | undefined, recorded?: string): AnswerId | undefined {
    return this.match(body, hqId, recorded)?.id as AnswerId | undefined
  }

  // The chamber find() takes for this one, as the server gave it.
  match(
    body: ChamberCreate,
    hqId: string | undefined,
    recorded?: string,
  ): AnswerRecord | undefined {
    return this.withName(body.name).find(
      (c) =>
        isAnswerId(c.id) &&
        (recorded === undefined
          ? // A server that does not say a chamber's type leaves the name to decide.
            (c.type === undefined || c.type === null || c.type === body.type) &&
            (body.type !== 'subsidiary' || (isAnswerId(c.hq_id) && idText(c.hq_id) === hqId))
          : idText(c.id) === recorded),
    )
  }
}
