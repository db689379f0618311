// The one way a message meets a terminal: every note, warning, error, hint and `label: value`
// line chamberctl (or commander, through main) prints is broken into lines that fit the
// terminal's width here, and written unchanged in a pipe. Lines break at spaces only: an id, an
// e-mail address, a URL or a path is never split; one wider than a whole line stands alone on
// its line and the terminal wraps it, so that a copy of it is still whole.
//
// A continuation line hangs under the text of its line: under the value of a `label: value`
// line (`error: `, `warning: `, `  secret:   `) when the label takes at most half of the
// width, else two cells in from the line's own indent; a word too wide for that starts further
// left, at the line's start if it must.
//
// Cells are counted with string-width, which costs start-up time (its tables and Unicode
// regular expressions) that no command in a pipe should pay: say(), fitText() and the error
// handler load it only when a terminal is to show text that is not plain ASCII, and until then a
// character beyond ASCII counts as two cells, the most it can take, so that a line is never wider
// than counted (sayNow(), in a signal handler, cannot wait for it).
import type { Writable } from 'node:stream'

// Where a message is said: stderr and its width (streams.ts's IO has both; streams.ts wraps its
// own last line with wrapText, so this names no type of it).
type SayIO = { err: Writable; stderrWidth?: number }

export type WrapOptions = {
  // Terminal cells of a text; cells() when not given.
  measure?: (text: string) => number
  // The label the text follows on its first line, laid out by the caller (a record view's
  // `email:      `): continuation lines hang under its end whatever its width.
  label?: string
}

const PLAIN_ASCII = /^[\x20-\x7e]*$/
let stringWidth: ((text: string) => number) | undefined

// Terminal cells of a line of text: exact for ASCII and once string-width is loaded, else an
// upper bound.
export function cells(text: string): number {
  if (PLAIN_ASCII.test(text)) return text.length
  if (stringWidth) return stringWidth(text)
  let count = 0
  for (const char of text) count += char.charCodeAt(0) < 0x80 ? 1 : 2
  return count
}

// Loads string-width for cells(); later calls cost nothing.
export async function loadCells(): Promise<void> {
  stringWidth ??= (await import('string-width')).default
}

// A label of one or two words and its padding: `error: `, `  token expires: `.
const LABEL = /^(\s*)(?:[A-Za-z][\w.-]*(?: [A-Za-z][\w.-]*)?:\s+)?/

export function wrapText(text: string, width: number | undefined, opts: WrapOptions = {}): string {
  const measure = opts.measure ?? cells
  if (opts.label !== undefined) {
    const own = /^\s*/.exec(opts.label)![0]
    return wrapLine(opts.label, text, { width, measure, own, hangs: true })
  }
  return text
    .split('\n')
    .map((line) => {
      const [lead, own] = LABEL.exec(line) as unknown as [string, string]
      const hangs = measure(lead) <= (width ?? 0) / 2
      return wrapLine(lead, line.slice(lead.length), { width, measure, own, hangs })
    })
    .join('\n')
}

// `text` after `lead` (a label and its padding, or the line's indent) in lines of `width` cells.
function wrapLine(
  lead: string,
  text: string,
  opts: { width?: number; measure: (text: string) => number; own: string; hangs: boolean },
): string {
  const { width, measure } = opts
  if (width === undefined || width <= 0 || measure(lead + text) <= width) return lead + text
  const base = `${opts.own}  `
  const hang = opts.hangs && measure(lead) > measure(base) ? ' '.repeat(measure(lead)) : base
  const lines: string[] = []
  let current = lead
  // Whether `current` holds only its indent or label: the next word starts it, without a space.
  let fresh = true
  for (const word of text.split(' ')) {
    if (measure(current) + (fresh ? 0 : 1) + measure(word) <= width) {
      current += fresh ? word : ` ${word}`
      fresh = false
    } else if (word !== '') {
      // A word too wide to hang is moved left as far as it must, never split; one too wide for
      // any line stays whole after its label.
      const room = [hang, base, ''].find((indent) => measure(indent) + measure(word) <= width)
      if (room === undefined && fresh) {
        current += word
        fresh = false
        continue
      }
      lines.push(current.trimEnd())
      current = (room ?? base) + word
      fresh = false
    }
  }
  lines.push(current)
  return lines.join('\n')
}

// Text fitted to a terminal `width` wide (undefined: a pipe, unchanged), counted exactly.
export async function fitText(text: string, width: number | undefined): Promise<string> {
  if (width !== undefined && !PLAIN_ASCII.test(text.replace(/\n/g, ''))) await loadCells()
  return wrapText(text, width)
}

// A message for a person on stderr, fitted to the terminal when stderr is one.
export async function say(io: SayIO, text: string): Promise<void> {
  io.err.write(`${await fitText(text, io.stderrWidth)}\n`)
}

// The same where nothing can be awaited (a signal handler, a callback): exact for ASCII, never
// too wide otherwise.
export function sayNow(io: SayIO, text: string): void {
  io.err.write(`${wrapText(text, io.stderrWidth)}\n`)
}
