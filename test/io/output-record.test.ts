import { describe, expect, it } from 'vitest'
import { writeRecord } from '../../src/io/output.js'
import { createTestIO } from '../helpers/test-io.js'
import { ANSI, ANSI_CODES, chambers, columns, outputOptions } from './fixtures.js'

const chamber = chambers()[0] as Record<string, unknown>

const options = outputOptions

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

  it('table: every field as aligned key: value lines, known ones first, unknown ones kept', async () => {
    const t = createTestIO({ stdoutIsTTY: true })
    await writeRecord(t.io, { extra: [1, 2], ...chamber }, options({ format: 'table' }))
    expect(t.stdout()).toBe(
      [
        'id:         c1',
        'name:       Berlin Chamber of Commerce',
        'type:       hq',
        'status:     active',
        'address:',
        '  street:      Fasanenstr. 85',
        '  city:        Berlin',
        '  postal_code: 10623',
        '  country:     DE',
        'extra:      [1,2]',
        'hq_id:',
        'created_at: 2024-01-02T03:04:05Z',
        'rating:     4.5',
        '',
      ].join('\n'),
    )
    expect(t.stdout()).not.toMatch(ANSI)
  })

  it('table: a date-time to the second, as tables show it; json keeps the fraction', async () => {
    const record = { id: 'c1', created_at: '2024-01-02T03:04:05.123456Z', note: '1.5' }
    const order = columns(['id', 'created_at'])
    const t = createTestIO({ stdoutIsTTY: true })
    await writeRecord(t.io, record, options({ format: 'table', order }))
    expect(t.stdout()).toBe('id:         c1\ncreated_at: 2024-01-02T03:04:05Z\nnote:       1.5\n')
    const picked = createTestIO({ stdoutIsTTY: true })
    await writeRecord(
      picked.io,
      record,
      options({ format: 'table', order, fields: ['created_at'] }),
    )
    expect(picked.stdout()).toBe('created_at: 2024-01-02T03:04:05Z\n')
    const json = createTestIO({ stdoutIsTTY: true })
    await writeRecord(json.io, record, options({ format: 'json', order }))
    expect(JSON.parse(json.stdout())).toEqual(record)
  })

  it('table: with --fields, exactly those paths, a missing one empty', async () => {
    const t = createTestIO({ stdoutIsTTY: true })
    await writeRecord(
      t.io,
      { id: 'c9' },
      options({ format: 'table', fields: ['id', 'address.city'] }),
    )
    expect(t.stdout()).toBe('id:           c9\naddress.city:\n')
  })

  it('table: lists of records as tables under headings', async () => {
    const t = createTestIO({ stdoutIsTTY: true, stdoutWidth: 60 })
    const members = [
      { id: 'm1', name: 'Ada Lovelace', email: 'ada@example.com', status: 'active' },
      { id: 'm2', name: 'Alan Turing', email: 'alan@example.com', status: 'pending' },
    ]
    await writeRecord(
      t.io,
      { id: 'c1', name: 'Berlin', members, events: [] },
      options({
        format: 'table',
        sections: { members: columns(['id', 'email', 'status']), events: columns(['id']) },
      }),
    )
    expect(t.stdout()).toBe(
      [
        'id:   c1',
        'name: Berlin',
        '',
        'Members (2)',
        'id  email             status',
        'm1  ada@example.com   active',
        'm2  alan@example.com  pending',
        '',
        'Events (0)',
        '',
      ].join('\n'),
    )
  })

  it('table: bold keys with colour; long values wrap at spaces to fit the width', async () => {
    const t = createTestIO({ stdoutIsTTY: true, stdoutWidth: 40 })
    const note = 'a long note about this chamber that needs more than one line'
    await writeRecord(t.io, { ...chamber, note }, options({ format: 'table', color: true }))
    expect(t.stdout()).toContain('\u001b[1maddress:\u001b[22m')
    const plain = t.stdout().replace(ANSI_CODES, '').trimEnd().split('\n')
    for (const line of plain) expect(line.length).toBeLessThanOrEqual(40)
    const at = plain.findIndex((line) => line.startsWith('note:'))
    expect(plain.slice(at, at + 3)).toEqual([
      'note:       a long note about this',
      '            chamber that needs more than',
      '            one line',
    ])
  })
})
