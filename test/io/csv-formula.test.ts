import fc from '../helpers/fast-check.js'
import { describe, expect, it } from 'vitest'
import { guardFormula, unguardFormula } from '../../src/io/csv-formula.js'

describe('the CSV formula guard', () => {
  it("puts a ' before a cell a spreadsheet would run as a formula", () => {
    expect(guardFormula('=HYPERLINK("http://x","y")')).toBe(`'=HYPERLINK("http://x","y")`)
    expect(guardFormula('@SUM(A1)')).toBe("'@SUM(A1)")
    expect(guardFormula('+49 30 1')).toBe("'+49 30 1")
    expect(guardFormula('-5')).toBe("'-5")
    expect(guardFormula('\tx')).toBe("'\tx")
    expect(guardFormula('\rx')).toBe("'\rx")
    // One more quote for a cell that looks guarded already, so that reading drops only it.
    expect(guardFormula("'=x")).toBe("''=x")
  })

  it('leaves every other cell alone', () => {
    for (const cell of ['', 'Ada', 'a=b', ' =x', "'", "'x", "it's", '49 30 1', '\nx']) {
      expect(guardFormula(cell)).toBe(cell)
    }
  })

  it('reading drops the one quote again, whatever the text', () => {
    const texts = fc.string({
      unit: fc.constantFrom("'", '=', '+', '-', '@', '\t', '\r', '\n', 'a', ' ', '4'),
      maxLength: 6,
    })
    fc.assert(
      fc.property(texts, (text) => unguardFormula(guardFormula(text)) === text),
      { numRuns: 2000 },
    )
  })
})
