// The sort key's binary order against the collator the sandbox sorted with before it stored its
// records in SQLite: Intl.Collator('en', { sensitivity: 'base', numeric: true }).
import { describe, expect, it } from 'vitest'
import { sortKey } from '../../src/sandbox/sort-key.js'

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true })

const sign = (n: number) => Math.sign(n) || 0
const keyOrder = (a: string, b: string) => {
  const [x, y] = [sortKey(a), sortKey(b)]
  return x < y ? -1 : x > y ? 1 : 0
}

// A reproducible stream of pseudo-random numbers in [0, 1).
function random(seed: number): () => number {
  return () => (seed = (seed * 48271) % 2147483647) / 2147483647
}

describe('sortKey', () => {
  it.each([
    ['case and accents', ['Émile', 'emile', 'EMILE', 'Emilé']],
    ['expansions', ['Straße', 'strasse'], ['Æther', 'aether'], ['Øre', 'ore'], ['ﬁne', 'fine']],
    ['numbers by value, leading zeros ignored', ['a01b', 'a1b'], ['00', '0']],
    ['ignorable characters', ['a\u200bb', 'ab'], ['\u0000a', 'a']],
  ])('makes equal what the collator makes equal: %s', (_, ...groups) => {
    for (const group of groups) {
      for (const other of group) {
        expect(collator.compare(group[0]!, other)).toBe(0)
        expect(sortKey(other)).toBe(sortKey(group[0]!))
      }
    }
  })

  it('orders like the collator: whitespace, punctuation, symbols, currency, numbers, letters', () => {
    const ordered = ['', '\t', ' ', '_', '-', ',', '!', '.', '(', '@', '&', '+', '~', '😀', '$']
    ordered.push('€', '2', '9', '10', '0100', 'a', 'a b', 'a-b', 'a1', 'a2', 'a10', 'ab', 'i')
    ordered.push('ı', 'j', 'n', 'nz', 'ŋ', 'o', 'z', 'þ', 'α', 'ж', '中')
    for (let i = 1; i < ordered.length; i++) {
      const [a, b] = [ordered[i - 1]!, ordered[i]!]
      expect(collator.compare(a, b), `${a} < ${b} by the collator`).toBe(-1)
      expect(keyOrder(a, b), `${a} < ${b} by the key`).toBe(-1)
    }
  })

  it('agrees with the collator on every pair of 600 random strings of a mixed alphabet', () => {
    const alphabet = [
      ...'aAbBzZeéEÉ0123456789 \t-_.,;:!?\'"()[]{}@*/\\&#%`^+<=>|~$ßæøÅñç€£😀αЖ中ﬁıŋ',
    ]
    const next = random(7)
    const strings = Array.from({ length: 600 }, () =>
      Array.from(
        { length: 1 + Math.floor(next() * 6) },
        () => alphabet[Math.floor(next() * alphabet.length)],
      ).join(''),
    )
    const disagreements: string[] = []
    for (let i = 0; i < strings.length; i++) {
      for (let j = i + 1; j < strings.length; j++) {
        const [a, b] = [strings[i]!, strings[j]!]
        if (sign(collator.compare(a, b)) !== keyOrder(a, b)) {
          disagreements.push(`${JSON.stringify(a)} ${JSON.stringify(b)}`)
        }
      }
    }
    expect(disagreements.slice(0, 10)).toEqual([])
  })
})
