// The fixture's chamber keys, made from names: readable (`Berlin Chamber of Commerce` →
// `berlin-chamber-of-commerce`), never empty, unique within the file.
import { LATIN_SPELLINGS } from '../../io/latin.js'

// Also þ and dotless ı, which ICU sorts as letters of their own.
const LATIN: Readonly<Record<string, string>> = { ...LATIN_SPELLINGS, þ: 'th', ı: 'i' }
const ASCII_WORD = /^[a-z0-9]+$/
const MARK = /^\p{M}$/u
const LETTER_OR_NUMBER = /^[\p{L}\p{N}]$/u
// Long enough for any real name's words; longer names keep their first words.
const MAX_LENGTH = 64

// Lower case, Latin letters without their accents (`Lübeck` → `lubeck`), letters of other
// scripts as they are (`Αθήνα` → `αθήνα`: readable beats an opaque fallback), everything else a
// single `-` between words. Empty when the name has no letter or digit at all.
export function slug(name: string): string {
  const parts: string[] = []
  let gap = false
  // Whether the last letter kept was Latin: its combining marks are accents and go, those of
  // other scripts (Devanagari vowel signs) are part of the letter and stay.
  let latin = true
  const keep = (text: string, isLatin: boolean) => {
    if (gap && parts.length) parts.push('-')
    parts.push(text)
    gap = false
    latin = isLatin
  }
  for (const char of name.normalize('NFC').toLowerCase()) {
    if (MARK.test(char)) {
      if (!latin && !gap) parts.push(char)
      continue
    }
    const base = char.normalize('NFKD').replace(/\p{M}/gu, '')
    const ascii = ASCII_WORD.test(base) ? base : LATIN[char]
    if (ascii !== undefined) keep(ascii, true)
    else if (LETTER_OR_NUMBER.test(char)) keep(char, false)
    else gap = true
  }
  return shorten([...parts.join('')])
}

function shorten(chars: string[]): string {
  if (chars.length <= MAX_LENGTH) return chars.join('')
  const cut = chars.slice(0, MAX_LENGTH)
  const lastGap = cut.lastIndexOf('-')
  return (lastGap > MAX_LENGTH / 2 ? cut.slice(0, lastGap) : cut).join('')
}

// Hands out keys in the order asked: the first of a name gets its slug, later ones `-2`, `-3`…,
// skipping any key already taken (a chamber named `Berlin 2` may hold `berlin-2`).
export class Keys {
  private readonly used = new Set<string>()

  take(name: string): string {
    const base = slug(name) || 'chamber'
    let key = base
    for (let n = 2; this.used.has(key); n++) key = `${base}-${n}`
    this.used.add(key)
    return key
  }
}
