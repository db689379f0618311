import { describe, expect, it } from 'vitest'
import { fitColumns, MIN_CELL_WIDTH } from '../../src/io/table.js'
import { cellText, escapeTsv, getPath, pickFields } from '../../src/io/values.js'

const chamber = {
  id: 'c1',
  name: 'Berlin',
  address: { city: 'Berlin', country: 'DE', geo: { lat: 52.5 } },
  hq_id: null,
  extra: 'kept',
}

describe('getPath', () => {
  it('reads top-level and nested values', () => {
    expect(getPath(chamber, 'name')).toBe('Berlin')
    expect(getPath(chamber, 'address.city')).toBe('Berlin')
    expect(getPath(chamber, 'address.geo.lat')).toBe(52.5)
    expect(getPath(chamber, 'address')).toEqual(chamber.address)
  })

  it('gives undefined for missing keys and for paths through non-objects', () => {
    expect(getPath(chamber, 'missing')).toBeUndefined()
    expect(getPath(chamber, 'address.street')).toBeUndefined()
    expect(getPath(chamber, 'name.length')).toBeUndefined()
    expect(getPath(chamber, 'hq_id.x')).toBeUndefined()
    expect(getPath(chamber, 'hq_id')).toBeNull()
  })

  it('walks into arrays by index', () => {
    const tagged = { tags: [{ name: 'a' }, 'b'] }
    expect(getPath(tagged, 'tags.0.name')).toBe('a')
    expect(getPath(tagged, 'tags.1')).toBe('b')
  })

  it('never reads inherited properties', () => {
    expect(getPath(chamber, 'toString')).toBeUndefined()
    expect(getPath(chamber, '__proto__.toString')).toBeUndefined()
    expect(getPath(chamber, 'constructor')).toBeUndefined()
  })
})

describe('pickFields', () => {
  it('picks keys in the order asked, nesting dotted paths and leaving out missing ones', () => {
    const picked = pickFields(chamber, ['address.city', 'id', 'missing', 'address.country'])
    expect(JSON.stringify(picked)).toBe('{"address":{"city":"Berlin","country":"DE"},"id":"c1"}')
  })

  it('keeps null values, which the record really has', () => {
    expect(pickFields(chamber, ['hq_id'])).toEqual({ hq_id: null })
  })

  it('does not write into the record when a path and its parent are both picked', () => {
    const record = { address: { city: 'Berlin', country: 'DE' } }
    const picked = pickFields(record, ['address', 'address.city'])
    expect(picked).toEqual({ address: { city: 'Berlin', country: 'DE' } })
    expect(picked.address).not.toBe(record.address)
  })

  it('keeps a key named __proto__ as a plain key', () => {
    const record = JSON.parse('{"__proto__":{"polluted":true},"id":"x"}') as Record<string, unknown>
    const picked = pickFields(record, ['__proto__', 'id'])
    expect(JSON.stringify(picked)).toBe('{"__proto__":{"polluted":true},"id":"x"}')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('cellText', () => {
  it('turns values into one cell of text', () => {
    expect(cellText('a')).toBe('a')
    expect(cellText(3)).toBe('3')
    expect(cellText(false)).toBe('false')
    expect(cellText(null)).toBe('')
    expect(cellText(undefined)).toBe('')
    expect(cellText({ city: 'Berlin' })).toBe('{"city":"Berlin"}')
    expect(cellText(['a', 1])).toBe('["a",1]')
  })
})

describe('escapeTsv', () => {
  it('escapes backslash, tab, newline and carriage return, and nothing else', () => {
    expect(escapeTsv('a\tb\nc\r\\d "e",f')).toBe('a\\tb\\nc\\r\\\\d "e",f')
  })
})

describe('fitColumns', () => {
  // Floors: a whole column's is Infinity (it is never cut).
  const free = [Infinity, MIN_CELL_WIDTH, MIN_CELL_WIDTH]

  it('leaves a table that fits alone', () => {
    expect(fitColumns([10, 20, 26], free, 60)).toEqual([10, 20, 26])
  })

  it('cuts the widest free column first and leaves narrow ones whole', () => {
    expect(fitColumns([6, 20, 80], free, 60)).toEqual([6, 20, 30])
  })

  it('cuts wide free columns to one common cap when one is not enough', () => {
    expect(fitColumns([6, 50, 80], free, 60)).toEqual([6, 25, 25])
  })

  it('never cuts a whole column (ids, e-mails, dates), however wide', () => {
    expect(fitColumns([30, 40, 40], [Infinity, 8, Infinity], 84)).toEqual([30, 10, 40])
  })

  it('gives up below the floor of a free column', () => {
    expect(fitColumns([40, 40, 4], [Infinity, 8, Infinity], 50)).toBeUndefined()
    expect(fitColumns([30, 40, 4], [Infinity, 8, Infinity], 46)).toEqual([30, 8, 4])
    expect(fitColumns([10, 40, 4], [Infinity, 20, Infinity], 33)).toBeUndefined()
    expect(fitColumns([10, 40, 4], [Infinity, 20, Infinity], 38)).toEqual([10, 20, 4])
  })
})
