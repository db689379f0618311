// The one vocabulary of a bulk run's counts: every count in its words and its order, whatever
// combination occurred.
import { describe, expect, it } from 'vitest'
import { COUNT_WORDS, bulkSummary } from '../../src/io/bulk-output.js'
import type { CountKey } from '../../src/io/bulk-output.js'

const keys = Object.keys(COUNT_WORDS) as CountKey[]

describe('bulkSummary', () => {
  it('says each count in its own words', () => {
    expect(keys.map((key) => bulkSummary({ [key]: 2 }))).toEqual([
      '2 created',
      '2 created earlier',
      '2 skipped as existing',
      '2 valid',
      '2 invalid',
      '2 failed',
      '2 unknown',
      '2 not sent',
    ])
  })

  it('says every combination of counts in one order, leaving out the zeros', () => {
    // Every subset of the counts, each count given a value of its own.
    for (let subset = 1; subset < 1 << keys.length; subset++) {
      const chosen = keys.filter((_, i) => subset & (1 << i))
      const counts = Object.fromEntries(keys.map((key, i) => [key, subset & (1 << i) ? i + 1 : 0]))
      expect(bulkSummary(counts)).toBe(
        chosen.map((key) => `${keys.indexOf(key) + 1} ${COUNT_WORDS[key]}`).join(', '),
      )
    }
  })

  it('tells what a resumed run created from what was there before', () => {
    expect(bulkSummary({ created: 2650, created_earlier: 350 })).toBe(
      '2,650 created, 350 created earlier',
    )
  })

  it('never says a row skipped as existing was sent or created', () => {
    expect(bulkSummary({ created: 0, skipped: 497 })).toBe('497 skipped as existing')
  })

  it('tells rows invalid before sending from rows that failed', () => {
    expect(bulkSummary({ created: 496, invalid: 3, failed: 1 })).toBe(
      '496 created, 3 invalid, 1 failed',
    )
  })

  it('says 0 of the first count, or of the one asked for, when nothing occurred', () => {
    expect(bulkSummary({})).toBe('0 created')
    expect(bulkSummary({ created: 0, failed: 0 })).toBe('0 created')
    expect(bulkSummary({}, { zero: 'created_earlier' })).toBe('0 created earlier')
  })

  it('adds the note and the time after the counts', () => {
    expect(
      bulkSummary({ created: 676, not_sent: 4323 }, { note: 'interrupted', elapsedMs: 3249 }),
    ).toBe('676 created, 4,323 not sent (interrupted) in 3.2 s')
    expect(bulkSummary({ created: 2, unknown: 1 }, { note: 'check before retrying' })).toBe(
      '2 created, 1 unknown (check before retrying)',
    )
  })
})
