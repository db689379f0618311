// The sandbox sorts text the way Intl.Collator('en', { sensitivity: 'base', numeric: true })
// compares it, but in SQLite, which cannot call a collator: every sortable value is stored with a
// key whose binary order is the collator's order, so an index on the key serves sorted pages.
// The key is the string's sequence of primary weights (the Unicode collation algorithm's first
// level), written as characters: case and accents are dropped, runs of digits compare by value,
// and whitespace < punctuation < symbols < currency < numbers < Latin letters < other letters.
// Where it departs from ICU (the manual's "Sort order"): symbols outside ASCII sort after
// all ASCII ones by code point, letters of other scripts after z by code point, and only ASCII
// digits (also full-width ones) count as numbers.
import { LATIN_SPELLINGS } from '../io/latin.js'

// ICU's root order of ASCII whitespace, punctuation and symbols but $ (currency comes later).
const SYMBOLS = '\t\n\v\f\r _-,;:!?.\'"()[]{}@*/\\&#%`^+<=>|~'
const SYMBOL_WEIGHT = new Map([...SYMBOLS].map((char, i) => [char, String.fromCharCode(0x01 + i)]))
// Above every ASCII symbol, then currency signs, then numbers; the character itself follows.
const OTHER_SYMBOL = '\x30'
const CURRENCY = '\x31'
// Then the number of significant digits, then the digits.
const NUMBER = '\x32'
// Letters the decomposition leaves alone: expansions ICU makes, and letters that ICU sorts right
// after their base letter (before the next one: '\uffff' is above every other letter).
const LETTERS: Record<string, string> = {
  ...LATIN_SPELLINGS,
  ı: 'i\uffff',
  ŋ: 'n\uffff',
  ə: 'e\uffff',
}
const TOKEN = /[0-9]+|[a-z]+|[^]/gu
const IGNORABLE = /^[\p{Cc}\p{Cf}]$/u
const LETTER = /^\p{L}$/u
const CURRENCY_SIGN = /^\p{Sc}$/u

export function sortKey(value: string): string {
  const folded = value.normalize('NFKD').toLowerCase().replace(/\p{M}/gu, '')
  let key = ''
  for (const [token] of folded.matchAll(TOKEN)) {
    const first = token.charCodeAt(0)
    if (first >= 0x30 && first <= 0x39) {
      const digits = token.replace(/^0+(?=.)/, '')
      key += NUMBER + String.fromCharCode(0x30 + Math.min(digits.length, 0xd000)) + digits
    } else if (first >= 0x61 && first <= 0x7a) key += token
    else key += weight(token)
  }
  return key
}

function weight(char: string): string {
  const symbol = SYMBOL_WEIGHT.get(char)
  if (symbol) return symbol
  if (IGNORABLE.test(char)) return ''
  if (LETTER.test(char)) return LETTERS[char] ?? char
  return (CURRENCY_SIGN.test(char) ? CURRENCY : OTHER_SYMBOL) + char
}
