// The headquarters search of `chambers create`: the exact id first, then names with a word that
// starts with what was typed, then any id or name that contains it.
import { describe, expect, it } from 'vitest'
import { matchHqs } from '../../../src/commands/chambers/create.js'

const HQS = [
  { id: 'ch_0001', name: 'Berlin Chamber of Commerce' },
  { id: 'ch_0002', name: 'Hamburg Chamber of Commerce' },
  { id: 'ch_0003', name: 'Munich Chamber of Industry and Commerce' },
  { id: 'ch_0010', name: 'Graz Chamber' },
]

const ids = (term: string) => matchHqs(HQS, term).map((hq) => hq.id)

describe('matchHqs', () => {
  it('ranks a word start of the name above a substring: "Hamb" is Hamburg, not Berlin', () => {
    expect(ids('Hamb')).toEqual(['ch_0002', 'ch_0001', 'ch_0003', 'ch_0010'])
    expect(ids('hamb')[0]).toBe('ch_0002')
  })

  it('puts the exact id first', () => {
    expect(ids('ch_0001')).toEqual(['ch_0001'])
    expect(matchHqs([...HQS, { id: 'x9', name: 'ch_0002 Friends' }], 'ch_0002')[0]!.id).toBe(
      'ch_0002',
    )
    expect(ids('CH_0010')[0]).toBe('ch_0010')
  })

  it('matches a word anywhere in the name by its start', () => {
    expect(ids('indus')).toEqual(['ch_0003'])
    expect(ids('com')).toEqual(['ch_0001', 'ch_0002', 'ch_0003'])
  })

  it('offers every hq, in order, for an empty term and none for a term nothing holds', () => {
    expect(ids('  ')).toEqual(HQS.map((hq) => hq.id))
    expect(ids('vienna')).toEqual([])
  })
})
