import { Writable } from 'node:stream'
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it } from 'vitest'
import { writeList } from '../../src/io/output.js'
import { createTestIO } from '../helpers/test-io.js'
import { ANSI, chambers, fromArray, outputOptions } from './fixtures.js'

const options = outputOptions

// What stdout holds each time the writer asks for the next record (so it has dealt with the
// previous one), and at the end: a writer that collects the list shows nothing until the end.
async function printedAsAsked(
  records: Record<string, unknown>[],
  opts: Parameters<typeof outputOptions>[0],
): Promise<{ seen: string[]; output: string }> {
  const t = createTestIO()
  const seen: string[] = []
  async function* gen() {
    for (const record of records) {
      yield record
      seen.push(t.stdout())
    }
  }
  await writeList(t.io, gen(), options(opts))
  return { seen, output: t.stdout() }
}

describe('writeList json', () => {
  it('prints one compact array in a pipe, unknown fields kept', async () => {
    const t = createTestIO()
    const count = await writeList(t.io, fromArray(chambers()), options({ format: 'json' }))
    expect(count).toBe(2)
    expect(t.stdout()).toBe(`${JSON.stringify(chambers())}\n`)
    expect(JSON.parse(t.stdout())[0].rating).toBe(4.5)
    expect(t.stderr()).toBe('')
  })

  it('pretty-prints with two spaces on a TTY, exactly as JSON.stringify would', async () => {
    const t = createTestIO({ stdoutIsTTY: true })
    await writeList(t.io, chambers(), options({ format: 'json' }))
    expect(t.stdout()).toBe(`${JSON.stringify(chambers(), null, 2)}\n`)
  })

  it('prints [] for an empty list, TTY or not', async () => {
    for (const stdoutIsTTY of [true, false]) {
      const t = createTestIO({ stdoutIsTTY })
      expect(await writeList(t.io, fromArray([]), options({ format: 'json' }))).toBe(0)
      expect(t.stdout()).toBe('[]\n')
    }
  })

  it('picks --fields, nesting dotted paths and leaving out missing keys', async () => {
    const t = createTestIO()
    await writeList(
      t.io,
      chambers(),
      options({ format: 'json', fields: ['id', 'address.city', 'rating'] }),
    )
    expect(JSON.parse(t.stdout())).toEqual([
      { id: 'c1', address: { city: 'Berlin' }, rating: 4.5 },
      { id: 'c2', address: { city: 'Potsdam' } },
    ])
  })

  it('writes each record as it arrives instead of collecting the list', async () => {
    const { seen, output } = await printedAsAsked([{ id: 'first' }, { id: 'second' }], {
      format: 'json',
    })
    expect(seen).toEqual(['[{"id":"first"}', '[{"id":"first"},{"id":"second"}'])
    expect(output).toBe('[{"id":"first"},{"id":"second"}]\n')
  })

  it('leaves stdout empty when the list fails before its first record', async () => {
    const t = createTestIO()
    // eslint-disable-next-line require-yield
    async function* failing(): AsyncGenerator<Record<string, unknown>> {
      throw new Error('404')
    }
    await expect(writeList(t.io, failing(), options({ format: 'json' }))).rejects.toThrow('404')
    expect(t.stdout()).toBe('')
  })

  it('does not close the array when the list fails part-way', async () => {
    const t = createTestIO()
    async function* failing() {
      yield { id: 'c1' }
      throw new Error('page 2 failed')
    }
    await expect(writeList(t.io, failing(), options({ format: 'json' }))).rejects.toThrow()
    expect(t.stdout()).toBe('[{"id":"c1"}')
    expect(() => JSON.parse(t.stdout())).toThrow()
  })
})

describe('writeList ndjson', () => {
  it('prints one compact record per line, unknown fields kept, even on a TTY', async () => {
    const t = createTestIO({ stdoutIsTTY: true })
    expect(await writeList(t.io, fromArray(chambers()), options({ format: 'ndjson' }))).toBe(2)
    expect(t.stdout()).toBe(
      chambers()
        .map((c) => `${JSON.stringify(c)}\n`)
        .join(''),
    )
  })

  it('picks --fields', async () => {
    const t = createTestIO()
    await writeList(
      t.io,
      chambers(),
      options({ format: 'ndjson', fields: ['name', 'address.country'] }),
    )
    expect(t.stdout()).toBe(
      '{"name":"Berlin Chamber of Commerce","address":{"country":"DE"}}\n' +
        '{"name":"Potsdam Chamber"}\n',
    )
  })

  it('prints nothing for an empty list', async () => {
    const t = createTestIO()
    expect(await writeList(t.io, [], options({ format: 'ndjson' }))).toBe(0)
    expect(t.stdout()).toBe('')
  })

  it('streams: each line is out before the next record is asked for', async () => {
    const { seen } = await printedAsAsked([{ i: 0 }, { i: 1 }, { i: 2 }], { format: 'ndjson' })
    expect(seen.map((text) => text.split('\n').length - 1)).toEqual([1, 2, 3])
  })

  it('waits for a slow stdout to drain before asking for more records', async () => {
    const written: string[] = []
    const out = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _encoding, callback) {
        written.push(chunk.toString())
        // Drained on a later turn of the event loop, never at once.
        setImmediate(callback)
      },
    })
    const t = createTestIO()
    const io = { ...t.io, out }
    const overfull: number[] = []
    // Asked for one by one (a list in memory would be written as one batch).
    async function* gen() {
      for (let i = 0; i < 6; i++) {
        if (out.writableNeedDrain) overfull.push(i)
        yield { id: `record-${i}`, padding: 'x'.repeat(20) }
      }
    }
    expect(await writeList(io, gen(), options({ format: 'ndjson' }))).toBe(6)
    expect(overfull).toEqual([])
    await new Promise<void>((resolve) => out.end(resolve))
    expect(written.join('').split('\n')).toHaveLength(7)
  })
})

describe('writeList tsv', () => {
  it('prints rows without header, borders or colour, nested values as JSON', async () => {
    const t = createTestIO()
    const count = await writeList(
      t.io,
      fromArray(chambers()),
      options({ format: 'tsv', columns: ['id', 'name', 'address', 'hq_id'], color: true }),
    )
    expect(count).toBe(2)
    expect(t.stdout()).toBe(
      'c1\tBerlin Chamber of Commerce\t' +
        '{"street":"Fasanenstr. 85","city":"Berlin","postal_code":"10623","country":"DE"}\t\n' +
        'c2\tPotsdam Chamber\t{"city":"Potsdam"}\tc1\n',
    )
    expect(t.stdout()).not.toMatch(ANSI)
  })

  it('uses the default columns, ignoring fields outside them', async () => {
    const t = createTestIO()
    await writeList(t.io, chambers(), options({ format: 'tsv' }))
    expect(t.stdout()).toBe(
      'c1\tBerlin Chamber of Commerce\thq\tactive\tBerlin\nc2\tPotsdam Chamber\tsubsidiary\tpending\tPotsdam\n',
    )
  })

  it('uses --fields as the columns, missing values empty', async () => {
    const t = createTestIO()
    await writeList(t.io, chambers(), options({ format: 'tsv', fields: ['rating', 'id'] }))
    expect(t.stdout()).toBe('4.5\tc1\n\tc2\n')
  })

  it('keeps every row on one line by escaping tabs, newlines and backslashes', async () => {
    const t = createTestIO()
    await writeList(
      t.io,
      [{ id: 'x', name: 'tab\there\nnew line\r\nback\\slash' }],
      options({ format: 'tsv', columns: ['id', 'name'] }),
    )
    expect(t.stdout()).toBe('x\ttab\\there\\nnew line\\r\\nback\\\\slash\n')
    expect(t.stdout().split('\n')).toHaveLength(2)
  })

  it('does not truncate long values', async () => {
    const t = createTestIO({ stdoutWidth: 40 })
    const name = 'n'.repeat(500)
    await writeList(
      t.io,
      [{ id: 'x', name }],
      options({ format: 'tsv', columns: ['name'], width: 40 }),
    )
    expect(t.stdout()).toBe(`${name}\n`)
  })

  it('prints nothing for an empty list', async () => {
    const t = createTestIO()
    expect(await writeList(t.io, fromArray([]), options({ format: 'tsv' }))).toBe(0)
    expect(t.stdout()).toBe('')
  })

  it('streams', async () => {
    const { seen } = await printedAsAsked([{ id: 'a' }, { id: 'b' }], {
      format: 'tsv',
      columns: ['id'],
    })
    expect(seen[0]).toBe('a\n')
  })
})

describe('writeList csv', () => {
  it('prints a header of column paths and one row per record, nested values as JSON', async () => {
    const t = createTestIO()
    const count = await writeList(
      t.io,
      fromArray(chambers()),
      options({ format: 'csv', columns: ['id', 'address.city', 'address', 'hq_id'] }),
    )
    expect(count).toBe(2)
    expect(t.stdout()).toBe(
      'id,address.city,address,hq_id\r\n' +
        'c1,Berlin,"{""street"":""Fasanenstr. 85"",""city"":""Berlin"",""postal_code"":""10623"",""country"":""DE""}",\r\n' +
        'c2,Potsdam,"{""city"":""Potsdam""}",c1\r\n',
    )
  })

  it('quotes commas, quotes and line breaks as RFC 4180 asks', async () => {
    const t = createTestIO()
    await writeList(
      t.io,
      [{ a: 'x,y', b: 'say "hi"', c: 'two\nlines', d: 'cr\ronly', e: 'plain' }],
      options({ format: 'csv', columns: ['a', 'b', 'c', 'd', 'e'] }),
    )
    expect(t.stdout()).toBe('a,b,c,d,e\r\n"x,y","say ""hi""","two\nlines","cr\ronly",plain\r\n')
  })

  it('writes booleans and numbers as JSON does, not as csv-stringify casts them', async () => {
    const t = createTestIO()
    await writeList(
      t.io,
      [{ a: true, b: false, c: 0 }],
      options({ format: 'csv', columns: ['a', 'b', 'c'] }),
    )
    expect(t.stdout()).toBe('a,b,c\r\ntrue,false,0\r\n')
  })

  it('uses --fields as the header', async () => {
    const t = createTestIO()
    await writeList(t.io, chambers(), options({ format: 'csv', fields: ['name', 'rating'] }))
    expect(t.stdout()).toBe('name,rating\r\nBerlin Chamber of Commerce,4.5\r\nPotsdam Chamber,\r\n')
  })

  it('prints the header alone for an empty list', async () => {
    const t = createTestIO()
    expect(await writeList(t.io, fromArray([]), options({ format: 'csv' }))).toBe(0)
    expect(t.stdout()).toBe('id,name,type,status,address.city\r\n')
  })

  it('streams, with the header going out with the first record', async () => {
    const { seen, output } = await printedAsAsked([{ id: 'a' }, { id: 'b' }], {
      format: 'csv',
      columns: ['id'],
    })
    expect(seen[0]).toBe('id\r\na\r\n')
    expect(output).toBe('id\r\na\r\nb\r\n')
  })
})

describe('writeList table', () => {
  it('prints a header and rows, two spaces apart, no borders, unknown fields left out; columns as wide as their values', async () => {
    const t = createTestIO({ stdoutIsTTY: true })
    // One batch, as a page comes: its widths are those of its widest values.
    const count = await writeList(t.io, chambers(), options({ format: 'table' }))
    expect(count).toBe(2)
    expect(t.stdout().split('\n')).toEqual([
      'id  name                        type        status   address.city',
      'c1  Berlin Chamber of Commerce  hq          active   Berlin',
      'c2  Potsdam Chamber             subsidiary  pending  Potsdam',
      '',
    ])
    expect(t.stderr()).toBe('')
  })

  it('makes the header bold and colours the status when colour is on', async () => {
    const t = createTestIO({ stdoutIsTTY: true })
    await writeList(t.io, chambers(), options({ format: 'table', color: true }))
    const [header, berlin, potsdam] = t.stdout().split('\n')
    expect(header).toContain('\u001b[1mid\u001b[22m')
    expect(berlin).toContain('\u001b[32mactive\u001b[39m')
    expect(potsdam).toContain('\u001b[33mpending\u001b[39m')
    // Nothing else in a row is styled.
    expect(stripVTControlCharacters(berlin!)).toBe(
      'c1  Berlin Chamber of Commerce  hq          active   Berlin',
    )
  })

  it('uses --fields as columns and JSON-encodes nested values', async () => {
    const t = createTestIO({ stdoutIsTTY: true })
    await writeList(t.io, chambers(), options({ format: 'table', fields: ['id', 'address'] }))
    expect(t.stdout()).toContain('{"city":"Potsdam"}')
    expect(t.stdout()).not.toContain('Potsdam Chamber')
  })

  it('cuts the free-text column with … so the table fits the terminal', async () => {
    const t = createTestIO({ stdoutIsTTY: true, stdoutWidth: 60 })
    const long = 'A very long chamber name '.repeat(10)
    await writeList(
      t.io,
      [{ id: 'c-000001', name: long, status: 'active' }],
      options({ format: 'table', columns: ['id', 'name', 'status'] }),
    )
    const lines = t.stdout().trimEnd().split('\n')
    // 60 - 8 (id) - 6 (status, as wide as its value) - 2 gaps of 2 leaves 42 for the name: 41
    // characters and "…".
    expect(lines[1]).toBe(`c-000001  ${long.slice(0, 41)}…  active`)
    expect(lines[1]).toHaveLength(60)
  })

  it('never cuts ids, e-mails or dates: the least important column that makes room goes, names give way', async () => {
    const t = createTestIO({ stdoutIsTTY: true, stdoutWidth: 100 })
    const member = {
      id: 'mb_000000000042',
      name: 'Augusta Ada King, Countess of Lovelace',
      email: 'augusta.ada.king.lovelace@analytical-engine.example.org',
      joined_at: '2024-01-15T09:00:00.000Z',
    }
    await writeList(t.io, [member], options({ format: 'table', columns: Object.keys(member) }))
    // The e-mail is twice as long as declared: beside it the name would keep fewer than 20 cells,
    // so joined_at goes and the name takes the 26 cells left.
    expect(t.stdout().split('\n')[1]).toBe(
      'mb_000000000042  Augusta Ada King, Countes…  augusta.ada.king.lovelace@analytical-engine.example.org',
    )
    expect(t.stderr()).toBe(
      'Not shown to fit the terminal: joined_at. Use --wide for every column, or --fields.\n',
    )
  })

  it('leaves out the least important columns that do not fit, says so once, and --wide keeps them', async () => {
    const rows = Array.from({ length: 3 }, (_, i) => ({
      id: `mb_00000${i}`,
      name: 'Ada Lovelace',
      email: `ada${i}@example.com`,
      status: 'active',
      phone: '+49 30 1007919',
      joined_at: '2024-01-15T09:00:00.000Z',
    }))
    const columns = Object.keys(rows[0]!)
    // At 50 columns: id (9) and name (20) leave 17, too few for an e-mail (24 declared) but
    // enough for the status, further down the order.
    const t = createTestIO({ stdoutIsTTY: true, stdoutWidth: 50 })
    await writeList(t.io, rows, options({ format: 'table', columns }))
    expect(t.stdout().split('\n')[1]).toBe('mb_000000  Ada Lovelace  active')
    expect(t.stderr()).toBe(
      'Not shown to fit the terminal: email, phone, joined_at. Use --wide for every column, or --fields.\n',
    )
    const wide = createTestIO({ stdoutIsTTY: true, stdoutWidth: 50 })
    await writeList(wide.io, rows, options({ format: 'table', columns, wide: true }))
    expect(wide.stdout().split('\n')[1]).toBe(
      'mb_000000  Ada Lovelace  ada0@example.com  active  +49 30 1007919  2024-01-15T09:00:00Z',
    )
    expect(wide.stderr()).toBe('')
  })

  it('prefers opts.width over the terminal width, and defaults to 100 columns', async () => {
    const row = [{ id: 'x', name: 'n'.repeat(300) }]
    const columns = ['id', 'name']
    const narrow = createTestIO({ stdoutIsTTY: true, stdoutWidth: 200 })
    await writeList(narrow.io, row, options({ format: 'table', columns, width: 50 }))
    expect(narrow.stdout().split('\n')[1]).toHaveLength(50)
    const unknown = createTestIO({ stdoutIsTTY: false })
    await writeList(unknown.io, row, options({ format: 'table', columns }))
    expect(unknown.stdout().split('\n')[1]).toHaveLength(100)
  })

  it('never cuts a free column below eight characters: columns picked with --fields overflow', async () => {
    const t = createTestIO({ stdoutIsTTY: true, stdoutWidth: 20 })
    const record = { a: 'abcdefghijklmnop', b: 'bcdefghijklmnopq', c: 'cdefghijklmnopqr' }
    await writeList(
      t.io,
      [record],
      options({ format: 'table', columns: [], fields: ['a', 'b', 'c'] }),
    )
    expect(t.stdout().split('\n')[1]).toBe('abcdefg…  bcdefgh…  cdefghi…')
  })

  it('keeps a value with line breaks and control characters on one row', async () => {
    const t = createTestIO({ stdoutIsTTY: true })
    await writeList(
      t.io,
      [{ id: 'x', name: 'two\nlines\u001b[2J' }],
      options({ format: 'table', columns: ['id', 'name'] }),
    )
    expect(t.stdout().trimEnd().split('\n')).toHaveLength(2)
    expect(t.stdout()).toContain('two\\nlines\\x1b[2J')
    expect(t.stdout()).not.toMatch(ANSI)
  })

  it('prints nothing for an empty list and reports 0 so the caller can say so on stderr', async () => {
    const t = createTestIO({ stdoutIsTTY: true })
    expect(await writeList(t.io, fromArray([]), options({ format: 'table' }))).toBe(0)
    expect(t.stdout()).toBe('')
    expect(t.stderr()).toBe('')
  })
})
