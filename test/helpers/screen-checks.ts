// What a person must never see on a terminal, checked on the lines of a transcript (tmux's
// `capture-pane -J`: a line the terminal wrapped comes back whole). Each check returns the
// offending lines (or tokens), so that a failure shows them.
import { existsSync } from 'node:fs'
import stringWidth from 'string-width'

// Cells as a terminal shows them: a symbol that is an emoji only when asked (✔, ✖, ⚠ without
// U+FE0F) takes one cell there, where string-width counts two.
const TEXT_SYMBOL = /(?![\d#*])\p{Extended_Pictographic}(?!\uFE0F)/gu
export function shownWidth(line: string): number {
  return stringWidth(
    line.replace(TEXT_SYMBOL, (c) => (/\p{Emoji_Presentation}/u.test(c) ? c : '-')),
  )
}

// Lines wider than the terminal.
export function tooWide(lines: readonly string[], columns: number): string[] {
  return lines.filter((line) => shownWidth(line) > columns)
}

// An id as the sandbox makes them, whole; a token that starts like one and is not one was cut.
const ID_START = /\b(?:ch|mb|ev)_[\w…]*/g
const WHOLE_ID = /^(?:ch_\d{4,}|mb_\d{6,}|ev_\d{4,})$/
// An e-mail address and what may stand around it in a sentence or a cell.
const EMAIL = /[^\s,;:()<>"'`[\]{}]*@[^\s,;:()<>"'`[\]{}]*/g
const URL = /\bhttps?:\/\/[^\s,;()<>"'`]*/g

export type Known = {
  emails: ReadonlySet<string>
  // URLs printed whole (a base URL); a longer one must start with one of them and a `/`.
  urls: readonly string[]
  // A directory the tour's files live in: any path under it that is printed must exist.
  dir: string
}

// Ids, e-mail addresses, URLs and paths cut by an ellipsis or broken across lines: every token
// that looks like one must be a whole one. Without `known` (help, whose examples are its own),
// only an ellipsis tells a cut. `inTable` tells the rows of a table, whose cells are cut by the
// table's fitting.
export function cutTokens(
  lines: readonly string[],
  known: Known | undefined,
  inTable: (line: string) => boolean = () => false,
): { token: string; inTable: boolean }[] {
  const cut: { token: string; inTable: boolean }[] = []
  const trim = (token: string) => token.replace(/[.…]+$/, '')
  for (const line of lines) {
    // A token is whole when it has no ellipsis and, where the tour knows them, is one it knows.
    const check = (token: string, whole: (known: Known) => boolean) => {
      if (token.includes('…') || (known !== undefined && !whole(known))) {
        cut.push({ token, inTable: token.endsWith('…') && inTable(line) })
      }
    }
    for (const [token] of line.matchAll(ID_START)) {
      check(token, () => WHOLE_ID.test(token))
    }
    for (const [token] of line.matchAll(EMAIL)) {
      check(token, ({ emails }) => emails.has(trim(token)))
    }
    for (const [token] of line.matchAll(URL)) {
      const url = trim(token)
      check(token, ({ urls }) => urls.some((base) => url === base || url.startsWith(`${base}/`)))
    }
    for (const [token] of line.matchAll(/(?<![\w/.~-])\/[^\s,;:()'"`]+/g)) {
      check(
        token,
        ({ dir }) => dir.startsWith(token) || !token.startsWith(dir) || existsSync(trim(token)),
      )
    }
  }
  return cut
}

// A table's lines, each a row; a cell cut ("…") while the table has room to spare (its widest
// line narrower than the terminal) is one the printer could have shown whole.
export function cutWithRoom(table: readonly string[], columns: number): string[] {
  const widest = Math.max(0, ...table.map((line) => shownWidth(line)))
  return widest < columns ? table.filter((line) => line.includes('…')) : []
}

// The tables in a command's output: a header row of column names (lower case words, two or more
// spaces apart) and the rows under it, up to a blank line or a line that is not a row (a note).
export function tablesIn(lines: readonly string[]): string[][] {
  const tables: string[][] = []
  const header = /^[a-z_][a-z_.]*(?: {2,}[a-z_][a-z_.]*)+$/
  const note = /^(?:$|Showing |Not shown |no |error:|warning:|\d[\d,]* \w+ (?:created|sent)|█|░)/
  for (let i = 0; i < lines.length; i++) {
    if (!header.test(lines[i]!)) continue
    const table = [lines[i]!]
    while (i + 1 < lines.length && !note.test(lines[i + 1]!)) table.push(lines[++i]!)
    tables.push(table)
  }
  return tables
}

// A shell comment in an example or a code block (`  # Log in once`): `# ` on an indented line
// beside another line of the same block (standing in at least as far), not a heading.
function shellComment(lines: readonly string[], at: number): boolean {
  const depth = /^( {2,})# /.exec(lines[at]!)?.[1]!.length
  if (depth === undefined) return false
  const inBlock = (line: string | undefined) =>
    line !== undefined && line.trim() !== '' && /^ */.exec(line)![0].length >= depth
  return inBlock(lines[at - 1]) || inBlock(lines[at + 1])
}

// Markdown a terminal shows as is: headings, fences, code spans. With `quotedCommands`, a code
// span that quotes a chamberctl command line is a message's way of quoting what to type.
export function rawMarkdown(
  lines: readonly string[],
  opts: { quotedCommands?: boolean } = {},
): string[] {
  const span = /`([^`\s][^`]*)`/g
  return lines.filter(
    (line, at) =>
      (/^\s*#{1,6} /.test(line) && !shellComment(lines, at)) ||
      /^\s*```/.test(line) ||
      [...line.matchAll(span)].some(
        ([, code]) => !(opts.quotedCommands && code!.startsWith('chamberctl ')),
      ),
  )
}
