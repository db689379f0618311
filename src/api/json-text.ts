// Scans of a JSON text that need no parse: how deep it nests, and where one value ends. Both skip
// strings by their quotes and count brackets in a loop, so neither can overflow the stack, and
// both take a text cut short (an excerpt).

// Answers are a few levels deep (a list, its records, an address). One nested far deeper is a
// fault or an attack: JSON.parse takes it, but every recursive walk afterwards (JSON.stringify,
// tables, jq's input) would end in "Maximum call stack size exceeded".
export const MAX_ANSWER_DEPTH = 128

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const SPACE = 0x20
// { and [, } and ]: 0x7b/0x5b and 0x7d/0x5d, the same bits but 0x20.
const isOpener = (c: number) => (c | 0x20) === 0x7b
const isCloser = (c: number) => (c | 0x20) === 0x7d

// Just after the closing quote of the string that opens at `open`, or the text's end.
function afterString(text: string, open: number): number {
  for (let i = text.indexOf('"', open + 1); i >= 0; i = text.indexOf('"', i + 1)) {
    let backslashes = 0
    while (text.charCodeAt(i - 1 - backslashes) === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return i + 1
  }
  return text.length
}

// Whether objects and arrays nest more than `max` levels deep.
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) i = afterString(text, i) - 1
    else if (isOpener(c)) {
      if (++depth > max) return true
    } else if (isCloser(c)) depth--
  }
  return false
}

// Where the value that starts at `start` ends: after its closing quote or bracket, or at the
// `,`, `}`, `]` or space after a number or a literal; the text's end for a value cut short.
export function valueEnd(text: string, start: number): number {
  let depth = 0
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      const after = afterString(text, i)
      if (depth === 0) return after
      i = after - 1
    } else if (isOpener(c)) depth++
    else if (isCloser(c)) {
      if (depth === 0) return i
      if (--depth === 0) return i + 1
    } else if (depth === 0 && (c === COMMA || c <= SPACE)) return i
  }
  return text.length
}
