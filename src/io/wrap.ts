// Text for a terminal broken into lines that fit its width: at spaces, and a word longer than a
// line (a path, a URL) in pieces, where the terminal would have broken it anyway. Free of imports:
// the error handler uses it; callers that may print wide characters hand in string-width.
import type { IO } from './streams.js'

export type WrapOptions = {
  // Terminal cells of a text; its length when not given.
  measure?: (text: string) => number
  // Put before every line after the first (aligns them under the first line's text).
  indent?: string
}

export function wrapText(text: string, width: number | undefined, opts: WrapOptions = {}): string {
  const measure = opts.measure ?? ((t: string) => t.length)
  const indent = opts.indent ?? ''
  if (width === undefined || width <= 0 || measure(text) <= width) return text
  const lines: string[] = []
  let line = ''
  const room = () => width - (lines.length > 0 ? measure(indent) : 0)
  const push = () => {
    lines.push(line)
    line = ''
  }
  for (const word of text.split(' ')) {
    const next = line === '' ? word : `${line} ${word}`
    if (measure(next) <= room()) {
      line = next
      continue
    }
    if (line !== '') push()
    // A word longer than a whole line: in pieces.
    let rest = word
    while (measure(rest) > room() && room() > 0) {
      let piece = ''
      for (const char of rest) {
        if (measure(piece + char) > room()) break
        piece += char
      }
      if (piece === '') break
      line = piece
      push()
      rest = rest.slice(piece.length)
    }
    line = rest
  }
  if (line !== '' || lines.length === 0) push()
  return lines.join(`\n${indent}`)
}

// A line for a person on stderr (a note, a hint), fitted to the terminal when stderr is one.
export function writeNote(
  io: Pick<IO, 'err' | 'stderrWidth'>,
  text: string,
  opts: WrapOptions = {},
): void {
  io.err.write(`${wrapText(text, io.stderrWidth, opts)}\n`)
}
