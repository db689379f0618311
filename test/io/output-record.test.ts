import { describe, expect, it } from 'vitest'
import type { OutputOptions } from '../../src/io/output.js'
import { writeRecord } from '../../src/io/output.js'
import { createTestIO } from '../helpers/test-io.js'
import { ANSI, ANSI_CODES, CHAMBER_COLUMNS, chambers } from './fixtures.js'

const chamber = chambers()[0] as Record<string, unknown>

function options(overrides: Partial<OutputOptions> & Pick<OutputOptions, 'format'>): OutputOptions {
  return { columns: CHAMBER_COLUMNS, color: false, ...overrides }
}

describe('writeRecord', () => {
  it('json: the whole object, compact in a pipe, unknown fields kept', async () => {
    const t = createTestIO()
    await writeRecord(t.io, chamber, options({ format: 'json' }))
    expect(t.stdout()).toBe(`${JSON.stringify(chamber)}\n`)
    expect(t.stdout()).toContain('"rating":4.5')
  })

  it('json: pretty-printed on a TTY', async () => {
    const t = createTestIO({ stdoutIsTTY: true })
    await writeRecord(t.io, chamber, options({ format: 'json' }))
    expect(t.stdout()).toBe(`${JSON.stringify(chamber, null, 2)}\n`)
  })

  it('json: picks --fields', async () => {
    const t = createTestIO()
    await writeRecord(t.io, chamber, options({ format: 'json', fields: ['id', 'address.city'] }))
    expect(t.stdout()).toBe('{"id":"c1","address":{"city":"Berlin"}}\n')
  })

  it('ndjson: one compact line, even on a TTY', async () => {
    const t = createTestIO({ stdoutIsTTY: true })
    await writeRecord(t.io, chamber, options({ format: 'ndjson' }))
    expect(t.stdout()).toBe(`${JSON.stringify(chamber)}\n`)
    const picked = createTestIO()
    await writeRecord(picked.io, chamber, options({ format: 'ndjson', fields: ['status'] }))
    expect(picked.stdout()).toBe('{"status":"active"}\n')
  })

  it('tsv: one row like a list row', async () => {
    const t = createTestIO()
    await writeRecord(t.io, chamber, options({ format: 'tsv' }))
    expect(t.stdout()).toBe('c1\tBerlin Chamber of Commerce\thq\tactive\tBerlin\n')
    const picked = createTestIO()
    await writeRecord(picked.io, chamber, options({ format: 'tsv', fields: ['address', 'id'] }))
    expect(picked.stdout()).toBe(`${JSON.stringify(chamber.address)}\tc1\n`)
  })

  it('csv: a header and one row', async () => {
    const t = createTestIO()
    await writeRecord(t.io, chamber, options({ format: 'csv', fields: ['id', 'name', 'address'] }))
    expect(t.stdout()).toBe(
      'id,name,address\r\n' +
        'c1,Berlin Chamber of Commerce,"{""street"":""Fasanenstr. 85"",""city"":""Berlin"",""postal_code"":""10623"",""country"":""DE""}"\r\n',
    )
  })

  it('table: one key/value line per column, unknown fields left out', async () => {
    const t = createTestIO({ stdoutIsTTY: true })
    await writeRecord(
      t.io,
      chamber,
      options({ format: 'table', columns: ['id', 'name', 'address'] }),
    )
    const lines = t.stdout().trimEnd().split('\n')
    expect(lines[0]).toMatch(/^┌─+┬─+┐$/)
    expect(t.stdout()).toMatch(/│ id +│ c1 +│/)
    expect(t.stdout()).toMatch(/│ name +│ Berlin Chamber of Commerce +│/)
    expect(t.stdout()).toContain('│ address │ {"street":"Fasanenstr. 85","city":"Berlin",')
    expect(t.stdout()).not.toContain('rating')
    expect(t.stdout()).not.toMatch(ANSI)
  })

  it('table: shows a field the record lacks with an empty value', async () => {
    const t = createTestIO({ stdoutIsTTY: true })
    await writeRecord(
      t.io,
      { id: 'c9' },
      options({ format: 'table', fields: ['id', 'address.city'] }),
    )
    expect(t.stdout()).toMatch(/│ address\.city +│ +│/)
  })

  it('table: bold keys with colour, cut values to fit the width', async () => {
    const t = createTestIO({ stdoutIsTTY: true, stdoutWidth: 40 })
    await writeRecord(
      t.io,
      chamber,
      options({ format: 'table', color: true, fields: ['id', 'address'] }),
    )
    expect(t.stdout()).toContain('\u001b[1maddress\u001b[22m')
    expect(t.stdout()).toContain('…')
    const plain = t.stdout().replace(ANSI_CODES, '')
    for (const line of plain.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(40)
  })
})
