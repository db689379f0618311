// The one rule for text that came from outside (a server, a file) on its way to a terminal
// (contract §4): every output path that writes such text to a terminal calls this module, and no
// other code escapes for a terminal. Pure and free of imports, so that any layer above io can
// use it at no start-up cost.
//
// What is shown escaped, and why:
// - C0 and C1 control characters and DEL (Unicode Cc): ESC and CSI (U+009B) start sequences that
//   clear the screen, move the cursor or write the clipboard (OSC 52); BEL ends them; CR
//   overwrites a line; a line break would fake a row or a line of our own.
// - Format characters (Cf): bidi overrides and isolates make text read in another order than it
//   is stored; zero-width spaces and joiners, soft hyphens and tag characters hide text or make
//   two different ids look the same.
// - Line and paragraph separators (Zl, Zp), which some terminals break lines at, and lone
//   surrogates (Cs), which no terminal can show.
// Kept as they are: a zero-width joiner inside an emoji sequence (👩‍💻) and the tags of a
// subdivision flag (🏴 of Scotland), which render as one picture and hide nothing.
//
// Notation: `\t`, `\n`, `\r`, else `\xHH` up to U+00FF, `\uHHHH`, `\u{HHHHH}` beyond: what a
// person reads in a JavaScript or C string. Backslashes stay as they are, since a person reads
// this, not a parser.

// Tested first, so that text with nothing to escape (nearly all of it) costs one scan: printable
// ASCII, then none of the classes escaped.
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/
const UNSAFE_CLASSES = String.raw`[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]`

const PICTURE = String.raw`\p{Extended_Pictographic}(?:\u{FE0F}|\p{Emoji_Modifier})?`
// Both made when first needed: V8 builds a RegExp's Unicode property classes through ICU as it
// is made (2.5 and 1.1 million instructions), which every command paid when it loaded this
// module, printing to a terminal or not.
let unsafe: RegExp | undefined
let scan: RegExp | undefined
const scanner = (): RegExp =>
  (scan ??= new RegExp(
    // Kept whole (the first group): an emoji ZWJ sequence, or a subdivision flag (the black flag,
    // its region's tags, the cancel tag). Anything else the class matches is escaped.
    `(${PICTURE}(?:\\u200D${PICTURE})+` +
      String.raw`|\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{2,6}\u{E007F})|` +
      UNSAFE_CLASSES,
    'gu',
  ))

const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' }

function readable(char: string): string {
  const named = NAMED[char]
  if (named !== undefined) return named
  const code = char.codePointAt(0)!
  const hex = code.toString(16)
  if (code <= 0xff) return `\\x${hex.padStart(2, '0')}`
  return code <= 0xffff ? `\\u${hex.padStart(4, '0')}` : `\\u{${hex}}`
}

// JSON's own escape for a character, so that escaped JSON is still the same JSON.
function jsonEscape(char: string): string {
  let out = ''
  for (let i = 0; i < char.length; i++) {
    out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`
  }
  return out
}

function escapeWith(text: string, keep: string, notation: (char: string) => string): string {
  if (!NOT_PRINTABLE_ASCII.test(text)) return text
  if (!(unsafe ??= new RegExp(UNSAFE_CLASSES, 'u')).test(text)) return text
  return text.replace(scanner(), (match, whole: string | undefined) =>
    whole !== undefined || keep.includes(match) ? match : notation(match),
  )
}

// Text for a person at a terminal: a cell, a value, a message, a line. `keep` names characters
// the caller lays out itself (the line breaks of a message of several lines).
export function escapeForTerminal(text: string, keep = ''): string {
  return escapeWith(text, keep, readable)
}

// JSON text on its way to a terminal: the same characters, written as JSON escapes (`\u009b`),
// so that what is shown still parses to the same value. Tabs and line breaks are left alone: in
// JSON text they can only be whitespace between tokens, never inside a string.
export function escapeJsonForTerminal(json: string): string {
  return escapeWith(json, '\t\n\r', jsonEscape)
}

// Whether the text has a character a terminal must not get raw.
export function needsTerminalEscape(text: string): boolean {
  return escapeForTerminal(text) !== text
}

// YAML's own escape for a character (`\u202e`, `\U000e0041`): valid in a double-quoted scalar.
function yamlEscape(char: string): string {
  const hex = char.codePointAt(0)!.toString(16)
  return hex.length <= 4 ? `\\u${hex.padStart(4, '0')}` : `\\U${hex.padStart(8, '0')}`
}

// YAML text on its way to a terminal, in which every scalar holding such a character is
// double-quoted (yaml-output.ts sees to that): the same characters as YAML escapes, so that what
// is shown still parses to the same value. Tabs and line breaks are left alone: a scalar that
// holds one is written with it escaped, so raw ones are the document's own layout.
export function escapeYamlForTerminal(yaml: string): string {
  return escapeWith(yaml, '\t\n\r', yamlEscape)
}
