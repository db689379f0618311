// What `diff` prints, from the comparison (compare.ts): each chamber's differences are gathered
// while its members stream, sorted, and written when the chamber is done, so that the output is
// the same whatever order the server's pages come in, and memory holds one chamber's
// differences. Three faces: a terminal (grouped by chamber, coloured, with a legend), a pipe (one
// tab-separated line per difference), --json (one document, written at the end: it holds every
// difference, which are few when the directory matches).
import { idText, isAnswerId } from '../../api/answers.js'
import type { AnswerRecord } from '../../api/answers.js'
import { emailKey } from '../../api/email.js'
import type { Context } from '../../cmdutil/context.js'
import { painter } from '../../io/color.js'
import type { Style } from '../../io/color.js'
import { put, writeDocument } from '../../io/output.js'
import { escapeForTerminal, escapeJsonForTerminal } from '../../io/terminal-text.js'
import { cellText, escapeTsv } from '../../io/values.js'
import { count, plural } from '../../util.js'
import type {
  ChamberComparison,
  ComparisonSink,
  Difference,
  MemberComparison,
} from '../../cmdutil/fixture/compare.js'

export type Sign = '+' | '-' | '~'

// One difference: a record only in the fixture (+), only on the server (-), or one field of a
// matched record (~, once per field).
type Entry = {
  sign: Sign
  kind: 'chamber' | 'member'
  // The fixture's key; for a chamber only on the server, its id.
  chamber: string
  member?: string
  id: string | null
  name: unknown
  field?: Difference
}

type Tally = { only_in_fixture: number; only_on_server: number; changed: number; same: number }
const tally = (): Tally => ({ only_in_fixture: 0, only_on_server: 0, changed: 0, same: 0 })

export type Summary = { chambers: Tally; members: Tally | null }

export const LEGEND =
  '+ only in the fixture (seed creates it)  - only on the server  ~ fixture → server'

// Members between two updates of the progress note.
const PROGRESS_EVERY = 1000

const ORDER: Record<Sign, number> = { '+': 0, '-': 1, '~': 2 }

function byEntry(a: Entry, b: Entry): number {
  const text = (x: string | undefined, y: string | undefined) =>
    (x ?? '') < (y ?? '') ? -1 : (x ?? '') > (y ?? '') ? 1 : 0
  return (
    (a.kind === b.kind ? 0 : a.kind === 'chamber' ? -1 : 1) ||
    text(a.member && emailKey(a.member), b.member && emailKey(b.member)) ||
    text(a.member, b.member) ||
    ORDER[a.sign] - ORDER[b.sign] ||
    text(a.field?.field, b.field?.field) ||
    text(a.id ?? undefined, b.id ?? undefined)
  )
}

const idOf = (record: AnswerRecord | undefined) =>
  record && isAnswerId(record.id) ? idText(record.id) : null

export type Writer = {
  // A fixture chamber's differences, sorted; none when it matches.
  chamber(chamber: ChamberComparison, entries: Entry[]): Promise<void>
  // The server's chambers no fixture chamber matched, by name.
  serverOnly(entries: Entry[]): Promise<void>
  end(summary: Summary): Promise<void>
}

// The sink the comparison feeds: gathers a chamber's entries and counts.
export class DiffReport implements ComparisonSink {
  readonly summary: Summary
  private entries: Entry[] = []
  private readonly serverOnly: Entry[] = []

  private chambers = 0
  private members = 0

  // `progress`: told how far the comparison has got, now and then.
  constructor(
    private readonly writer: Writer,
    members: boolean,
    private readonly progress?: (text: string) => void,
  ) {
    this.summary = { chambers: tally(), members: members ? tally() : null }
  }

  private show(): void {
    this.progress?.(
      `comparing chamber ${count(this.chambers)}` +
        (this.summary.members ? `, ${count(this.members)} ${plural(this.members, 'member')}` : ''),
    )
  }

  get equal(): boolean {
    return isEqual(this.summary)
  }

  chamber(result: ChamberComparison): void {
    this.chambers++
    this.show()
    const { chamber, match, fields } = result
    const base = { kind: 'chamber' as const, chamber: chamber.key, name: chamber.body.name }
    if (!match) {
      this.summary.chambers.only_in_fixture++
      this.entries.push({ ...base, sign: '+', id: null })
      return
    }
    this.summary.chambers[fields.length ? 'changed' : 'same']++
    for (const field of fields) this.entries.push({ ...base, sign: '~', id: match.id, field })
  }

  member({ chamber, fixture, server, fields }: MemberComparison): void {
    if (++this.members % PROGRESS_EVERY === 0) this.show()
    const tally = this.summary.members!
    // Most members match: counted, nothing more.
    if (server && fixture && fields.length === 0) {
      tally.same++
      return
    }
    const base = {
      kind: 'member' as const,
      chamber: chamber.chamber.key,
      id: idOf(server),
      name: fixture ? fixture.body.name : server!.name,
    }
    if (!server) {
      tally.only_in_fixture++
      this.entries.push({ ...base, sign: '+', member: fixture!.body.email })
    } else if (!fixture) {
      tally.only_on_server++
      this.entries.push({ ...base, sign: '-', member: cellText(server.email) })
    } else {
      tally[fields.length ? 'changed' : 'same']++
      for (const field of fields) {
        this.entries.push({ ...base, sign: '~', member: fixture.body.email, field })
      }
    }
  }

  async chamberDone(result: ChamberComparison): Promise<void> {
    const entries = this.entries.sort(byEntry)
    this.entries = []
    await this.writer.chamber(result, entries)
  }

  onlyOnServer(record: AnswerRecord): void {
    this.summary.chambers.only_on_server++
    const id = idOf(record)
    this.serverOnly.push({ sign: '-', kind: 'chamber', chamber: id ?? '', id, name: record.name })
  }

  async end(): Promise<void> {
    const byName = (a: Entry, b: Entry) =>
      cellText(a.name) < cellText(b.name) ? -1 : cellText(a.name) > cellText(b.name) ? 1 : 0
    const serverOnly = this.serverOnly.sort((a, b) => byName(a, b) || byEntry(a, b))
    await this.writer.serverOnly(serverOnly)
    await this.writer.end(this.summary)
  }
}

// A pipe: `sign kind chamber member field fixture server`, tab-separated, every line seven cells
// (empty where they do not apply), TSV-escaped; values as table cells are (null empty, objects
// compact JSON).
export function pipeWriter(ctx: Pick<Context, 'io'>): Writer {
  const cell = (value: unknown) => escapeTsv(cellText(value))
  const write = async (entries: Entry[]) => {
    let text = ''
    for (const e of entries) {
      const [fixture, server] = e.field
        ? [e.field.fixture, e.field.server]
        : e.sign === '+'
          ? [e.name, null]
          : [null, e.name]
      const cells = [e.sign, e.kind, e.chamber, e.member, e.field?.field, fixture, server]
      text += `${cells.map(cell).join('\t')}\n`
    }
    if (text) await put(ctx.io.out, text)
  }
  return { chamber: (_chamber, entries) => write(entries), serverOnly: write, async end() {} }
}

const STYLE: Record<Sign, Style> = { '+': 'green', '-': 'red', '~': 'yellow' }
// In accessible mode the words say what the signs and colours do.
const WORD: Record<Sign, string> = {
  '+': 'only in fixture:',
  '-': 'only on server:',
  '~': 'differs:',
}

// A terminal: a legend, then each chamber with differences and, indented under it, its fields and
// members; values as JSON (strings quoted), escaped for the terminal; a summary line.
export function terminalWriter(ctx: Pick<Context, 'io' | 'globals'>): Writer {
  const paint = painter(ctx.globals.color)
  const accessible = ctx.globals.accessible
  const mark = (sign: Sign, text: string) =>
    paint(STYLE[sign], `${accessible ? WORD[sign] : sign} ${text}`)
  const text = (value: unknown) => escapeForTerminal(cellText(value))
  const value = (v: unknown) =>
    v === null || v === undefined ? '(none)' : escapeJsonForTerminal(JSON.stringify(v))
  const change = (d: Difference) =>
    `${escapeForTerminal(d.field)}: ${value(d.fixture)}${d.hq === undefined ? '' : ` (hq ${text(d.hq)})`} → ${value(d.server)}`
  let started = false
  const start = async () => {
    if (!started) await put(ctx.io.out, `${paint('dim', LEGEND)}\n\n`)
    started = true
  }
  return {
    async serverOnly(entries) {
      if (entries.length === 0) return
      await start()
      const lines = entries.map((e) => mark('-', `chamber ${text(e.id)} ${value(e.name)}`))
      await put(ctx.io.out, `${lines.join('\n')}\n`)
    },
    async chamber(result, entries) {
      if (entries.length === 0) return
      await start()
      const lines: string[] = []
      const id = result.match ? ` (${text(result.match.id)})` : ''
      const added = entries[0]!.kind === 'chamber' && entries[0]!.sign === '+'
      const head = `chamber ${text(result.chamber.key)}${id} ${value(result.chamber.body.name)}`
      const changed = entries.some((e) => e.kind === 'chamber')
      lines.push(added || changed ? mark(added ? '+' : '~', head) : `  ${head}`)
      let member: string | undefined
      for (const e of entries) {
        if (e.kind === 'chamber') {
          if (e.field) lines.push(`    ${mark('~', change(e.field))}`)
          continue
        }
        if (e.sign !== '~') {
          const id = e.id === null ? '' : ` (${text(e.id)})`
          lines.push(`    ${mark(e.sign, `member ${text(e.member)}${id} ${value(e.name)}`)}`)
          member = undefined
          continue
        }
        if (member !== e.member) {
          lines.push(`    ${mark('~', `member ${text(e.member)} (${text(e.id)})`)}`)
          member = e.member
        }
        lines.push(`        ${mark('~', change(e.field!))}`)
      }
      await put(ctx.io.out, `${lines.join('\n')}\n`)
    },
    async end() {},
  }
}

// Nothing only on one side and nothing changed, among chambers and, when compared, members.
function isEqual({ chambers, members }: Summary): boolean {
  const differs = (t: Tally | null) =>
    t !== null && t.only_in_fixture + t.only_on_server + t.changed > 0
  return !differs(chambers) && !differs(members)
}

export function summaryLine({ chambers, members }: Summary): string {
  const part = (t: Tally, noun: string) =>
    `${noun} ${t.only_in_fixture} only in the fixture, ${t.only_on_server} only on the server, ${t.changed} changed, ${t.same} the same`
  return (
    `${isEqual({ chambers, members }) ? 'No differences' : 'Differences'}: ${part(chambers, 'chambers')}` +
    (members ? `; ${part(members, 'members')}` : ' (members not compared: --members)')
  )
}

// --json: one document (`chamberctl diff --help` describes it), written at the end.
export function jsonWriter(ctx: Pick<Context, 'io' | 'globals'>, file: string): Writer {
  const list = () => ({
    only_in_fixture: [] as object[],
    only_on_server: [] as object[],
    changed: [] as object[],
  })
  const chambers = list()
  const members = list()
  const fields = (entries: Entry[]) =>
    entries.map(({ field }) => ({
      field: field!.field,
      fixture: field!.fixture ?? null,
      server: field!.server ?? null,
      ...(field!.hq === undefined ? {} : { hq: field!.hq }),
    }))
  return {
    async serverOnly(entries) {
      for (const e of entries) chambers.only_on_server.push({ id: e.id, name: e.name ?? null })
    },
    async chamber(result, entries) {
      const key = result.chamber.key
      const id = result.match?.id ?? null
      const own = entries.filter((e) => e.kind === 'chamber')
      if (own[0]?.sign === '+') chambers.only_in_fixture.push({ key, name: own[0].name })
      else if (own.length) chambers.changed.push({ key, id, fields: fields(own) })
      const rest = entries.filter((e) => e.kind === 'member')
      for (let i = 0; i < rest.length;) {
        const e = rest[i]!
        const member = { chamber: key, chamber_id: id, email: e.member, id: e.id }
        if (e.sign === '+') members.only_in_fixture.push({ ...member, name: e.name })
        else if (e.sign === '-') members.only_on_server.push({ ...member, name: e.name ?? null })
        if (e.sign !== '~') {
          i++
          continue
        }
        let j = i
        while (j < rest.length && rest[j]!.sign === '~' && rest[j]!.member === e.member) j++
        members.changed.push({ ...member, fields: fields(rest.slice(i, j)) })
        i = j
      }
    },
    async end(summary) {
      const document = {
        equal: isEqual(summary),
        fixture: file,
        chambers,
        members: summary.members ? members : null,
        summary,
      }
      await writeDocument(ctx.io, document, { format: ctx.globals.format, jq: ctx.globals.jq })
    },
  }
}
