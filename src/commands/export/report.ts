// What an export wrote, and what it could not, said on stderr at the end: the counts, the fields
// left out, and the records seed could not create, named with their reasons.
import { idText, isAnswerId } from '../../api/answers.js'
import type { AnswerRecord } from '../../api/answers.js'
import type { Context } from '../../cmdutil/context.js'
import { escapeForTerminal } from '../../io/terminal-text.js'
import { count as formatCount, plural } from '../../util.js'
import { say } from '../../io/wrap.js'

// Left-out records named in the warning; the rest are counted.
const NAMED = 5

// What the fixture holds, and what it could not: printed on stderr at the end.
export class Report {
  members = 0
  private readonly leftOutFields = new Map<string, number>()
  private readonly leftOutChambers: string[] = []
  private readonly leftOutMembers: string[] = []
  private memberProblems = 0
  private readonly unreadChambers: string[] = []

  fields(names: readonly string[]): void {
    for (const name of names) this.leftOutFields.set(name, (this.leftOutFields.get(name) ?? 0) + 1)
  }

  chamber(record: AnswerRecord, problem: string): void {
    this.leftOutChambers.push(`${describe(record)} (${problem})`)
  }

  member(record: AnswerRecord, chamberKey: string, problem: string): void {
    if (this.memberProblems++ < NAMED) {
      this.leftOutMembers.push(`${describe(record)} of ${chamberKey} (${problem})`)
    }
  }

  unread(chamberKey: string): void {
    this.unreadChambers.push(chamberKey)
  }

  async print(
    ctx: Pick<Context, 'io' | 'globals'>,
    chambers: number,
    withMembers: boolean,
  ): Promise<void> {
    const { io, globals } = ctx
    const lines: string[] = []
    if (!globals.quiet) {
      lines.push(
        `Exported ${count(chambers, 'chamber')}` +
          (withMembers ? ` and ${count(this.members, 'member')}` : ''),
      )
      const fields = [...this.leftOutFields].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1))
      if (fields.length > 0) {
        const total = fields.reduce((sum, [, n]) => sum + n, 0)
        lines.push(
          `Left out ${count(total, 'field')} seed cannot send: ` +
            fields.map(([name, n]) => `${name} (${n})`).join(', '),
        )
      }
    }
    // Records missing from the copy are said even with -q: a script must not miss them.
    if (this.leftOutChambers.length > 0) {
      lines.push(
        `Left out ${count(this.leftOutChambers.length, 'chamber')} seed cannot create (nor their members): ` +
          listed(this.leftOutChambers, this.leftOutChambers.length),
      )
    }
    if (this.memberProblems > 0) {
      lines.push(
        `Left out ${count(this.memberProblems, 'member')} seed cannot create: ` +
          listed(this.leftOutMembers, this.memberProblems),
      )
    }
    if (this.unreadChambers.length > 0) {
      lines.push(
        `Members not exported of ${count(this.unreadChambers.length, 'chamber')} the server gave no usable id: ` +
          this.unreadChambers.join(', '),
      )
    }
    // The names and ids are the server's.
    if (lines.length > 0) await say(io, escapeForTerminal(lines.join('\n'), '\n'))
  }
}

function describe(record: AnswerRecord): string {
  return isAnswerId(record.id) ? idText(record.id) : '(no id)'
}

function listed(items: readonly string[], total: number): string {
  const shown = items.slice(0, NAMED)
  return shown.join(', ') + (total > shown.length ? ` and ${total - shown.length} more` : '')
}

export function count(n: number, noun: string): string {
  return `${formatCount(n)} ${plural(n, noun)}`
}
