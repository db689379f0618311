// What both reports read: the chambers (all, or those of --type and --status), held as their id,
// name and city only (they are few), then each one's members page by page (--member-status), so
// that memory does not grow with the directory. A chamber that is gone when its members are asked
// for (404) is skipped and said on stderr; the report then ends with exit 1, as it is incomplete.
import type { AnswerRecord } from '../../api/answers.js'
import { idText, isAnswerId } from '../../api/answers.js'
import type { Client, PageParams } from '../../api/client.js'
import { ApiError } from '../../api/errors.js'
import { pages, paginate } from '../../api/paginate.js'
import type { Page } from '../../api/answers.js'
import { idProblem } from '../../api/paths.js'
import { requireV2, usedFlag } from '../../cmdutil/api-version.js'
import type { Context } from '../../cmdutil/context.js'
import { CliError, ExitCode } from '../../errors.js'
import type { Progress } from '../../io/progress.js'
import { escapeForTerminal } from '../../io/terminal-text.js'
import { say } from '../../io/wrap.js'
import { count, isPlainObject, plural } from '../../util.js'

export type SelectFlags = { type?: string; status?: string; memberStatus?: string }
export type Selection = { type?: string; status?: string; memberStatus?: string }

// A chamber as a report shows it beside each member: the values as the server sent them.
export type ChamberRef = { id: string; name: unknown; city: unknown }

// One page of one chamber's members: its number and size as asked, so it can be asked again.
export type MemberPage = {
  chamber: number
  page: number
  perPage: number | undefined
  records: AnswerRecord[]
}

const V2_FLAGS = { type: '--type', status: '--status', memberStatus: '--member-status' }

export function selection(flags: SelectFlags): Selection {
  return { type: flags.type, status: flags.status, memberStatus: flags.memberStatus }
}

// The client, once the selection is known to suit its API version (all three filters are v2).
export async function connect(ctx: Context, selected: Selection): Promise<Client> {
  const client = await ctx.api()
  requireV2(ctx, client, usedFlag(selected, V2_FLAGS))
  return client
}

export class Walk {
  // Chambers whose members could not be read, by id: gone (404), or no usable id.
  readonly unread: string[] = []
  // The progress note on stderr, cleared before a warning is said.
  progress: Progress | undefined

  constructor(
    private readonly client: Client,
    private readonly selected: Selection,
    private readonly ctx: Pick<Context, 'io' | 'globals'>,
  ) {}

  async chambers(): Promise<ChamberRef[]> {
    const { type, status } = this.selected
    // --all asks for pages of 100, the most the API gives.
    const list = (p: PageParams) => this.client.chambers.list({ type, status, ...p })
    const chambers: ChamberRef[] = []
    for await (const record of paginate(list, { all: true })) {
      const id = isAnswerId(record.id) ? idText(record.id) : undefined
      if (id === undefined || idProblem(id) !== undefined) {
        const named = id ?? '(no id)'
        this.unread.push(named)
        await this.warn(
          `chamber ${named} has no id its members can be asked by; the report goes on without them`,
        )
        continue
      }
      const address = record.address
      const city = isPlainObject(address) ? (address.city ?? null) : null
      chambers.push({ id, name: record.name ?? null, city })
    }
    return chambers
  }

  // The members of each chamber in turn, a page at a time; at most `limit` in all.
  async *members(chambers: readonly ChamberRef[], limit = Infinity): AsyncGenerator<MemberPage> {
    let left = limit
    for (const [index, chamber] of chambers.entries()) {
      if (left <= 0) return
      const asked = new Map<number, number | undefined>()
      let number = 0
      try {
        for await (const records of pages(
          (p) => {
            asked.set(p.page, p.perPage)
            return this.page(chamber.id, p)
          },
          left === Infinity ? { all: true } : { limit: left },
        )) {
          // pages() hands out the pages in order, from the first, none of them empty.
          number++
          left -= records.length
          yield { chamber: index, page: number, perPage: asked.get(number), records }
        }
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 'not_found')) throw error
        await this.gone(chamber)
      }
    }
  }

  // One page of a chamber's members, as the walk asks for it.
  private page(chamberId: string, p: PageParams): Promise<Page> {
    return this.client.members.list(chamberId, { ...p, status: this.selected.memberStatus })
  }

  // A page the walk read, read again (to confirm what it saw); undefined when the chamber is gone.
  async again(chamber: ChamberRef, p: PageParams): Promise<AnswerRecord[] | undefined> {
    try {
      return (await this.page(chamber.id, p)).data
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'not_found')) throw error
      await this.gone(chamber)
      return undefined
    }
  }

  private async gone(chamber: ChamberRef): Promise<void> {
    if (this.unread.includes(chamber.id)) return
    this.unread.push(chamber.id)
    await this.warn(
      `chamber ${chamber.id} was listed but is gone (404) when its members were read; the report goes on without them`,
    )
  }

  // Said even with -q: a script must learn that the report is incomplete. The ids are the server's.
  private async warn(text: string): Promise<void> {
    this.progress?.stop()
    await say(this.ctx.io, `warning: ${escapeForTerminal(text)}`)
  }

  // A report that lacks some chamber's members must not pass for a whole one: exit 1.
  incomplete(): CliError | undefined {
    if (this.unread.length === 0) return undefined
    return new CliError(
      `the report lacks the members of ${count(this.unread.length)} ${plural(this.unread.length, 'chamber')}: ${this.unread.join(', ')}`,
      ExitCode.failure,
      'incomplete',
    )
  }
}
