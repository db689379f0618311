// The layout of a table at 60, 80 and 120 columns, with the descriptors commands use and generated
// records: which columns a width shows, how wide they are, and what a later page with longer text
// than the first gets.
import stringWidth from 'string-width'
import { describe, expect, it } from 'vitest'
import { columnsOf, members } from '../../src/api/resources/index.js'
import { memberFailures } from '../../src/api/resources/results.js'
import { startTable, WIDE_FREE_WIDTH } from '../../src/io/table.js'
import type { OutputRecord } from '../../src/io/values.js'

const member = (i: number, name = `Person ${String(i).padStart(4, '0')}`) => ({
  id: `mem_${String(i).padStart(5, '0')}`,
  name,
  email: `person.${String(i).padStart(4, '0')}@example.org`,
  phone: '+49 30 1007919',
  membership_type: 'corporate',
  status: 'active',
  joined_at: '2024-01-15T09:00:00.123456Z',
})

// A page of members whose names are `name(i)`.
const page = (from: number, count: number, name?: (i: number) => string) =>
  Array.from({ length: count }, (_, k) => member(from + k, name?.(from + k)))

// The lines a table prints for these pages, the first settling it.
async function print(
  columns: ReturnType<typeof columnsOf>,
  pages: OutputRecord[][],
  width: number,
): Promise<{ lines: string[]; dropped: string[] }> {
  const table = await startTable(columns, pages[0]!, { color: false, width, mayDrop: true })
  const text = pages.map((records) => table.render(records)).join('')
  return { lines: text.trimEnd().split('\n'), dropped: table.dropped }
}

const headerOf = (lines: string[]) => lines[0]!.split(/ {2,}/)

describe('table layout', () => {
  it.each([
    [60, ['id', 'name', 'email']],
    [80, ['id', 'name', 'email', 'status']],
    [120, ['id', 'name', 'email', 'phone', 'membership_type', 'status']],
  ])(
    'at %i columns shows %j of members, in their order, whatever the page holds',
    async (width, shown) => {
      const short = await print(columnsOf(members), [page(1, 11)], width)
      const long = await print(
        columnsOf(members),
        [page(1, 11, (i) => `Bulk Person ${i} of a chamber with a rather long name`)],
        width,
      )
      expect(headerOf(short.lines)).toEqual(shown)
      expect(headerOf(long.lines)).toEqual(shown)
      for (const line of [...short.lines, ...long.lines]) {
        expect(stringWidth(line)).toBeLessThanOrEqual(width)
      }
      // The e-mail is whole, as wide as the longest one (22 cells), not as declared.
      expect(short.lines[1]).toContain('  person.0001@example.org')
    },
  )

  it('at 60 columns leaves out e-mails longer than declared rather than cut the name below 20', async () => {
    const long = (i: number) => ({
      ...member(i),
      email: `person.${i}@chamber-of-commerce.example.org`,
    })
    const { lines, dropped } = await print(columnsOf(members), [[long(1), long(2)]], 60)
    expect(headerOf(lines)).toEqual(['id', 'name'])
    expect(dropped).toEqual(['email', 'phone', 'membership_type', 'status', 'joined_at'])
  })

  it('gives the spare width to free text wherever it stands: a long name is whole when it fits', async () => {
    const name = 'Augusta Ada King of Lovelace'
    const { lines } = await print(columnsOf(members), [[member(1, name)]], 80)
    expect(lines[1]).toBe(`mem_00001  ${name}  person.0001@example.org  active`)
  })

  it.each([60, 80, 120])(
    'at %i columns, a later page with longer names than the first cuts them only at the terminal',
    async (width) => {
      const later = (i: number) => `Bulk Person ${i} `.repeat(8)
      const { lines } = await print(columnsOf(members), [page(1, 11), page(12, 5, later)], width)
      const rows = lines.slice(12)
      expect(rows).toHaveLength(5)
      for (const row of rows) {
        // Every later row takes the whole width: the name is cut at the terminal's edge, not at
        // the eleven cells of the first page's names.
        expect(stringWidth(row)).toBe(width)
        expect(row).toMatch(/ {2}Bulk Person \d+ Bulk.*…/)
        expect(row).toMatch(/person\.\d{4}@example\.org/)
      }
    },
  )

  it('prints a later, longer name whole when the terminal has the room', async () => {
    const { lines } = await print(
      columnsOf(members),
      [page(1, 3), [member(4, 'Bulk Person 0004 of Potsdam')]],
      120,
    )
    expect(lines[4]).toContain('  Bulk Person 0004 of Potsdam  ')
  })

  it('counts the last column at its own width: it is not padded', async () => {
    const row = (i: number, name: string, status: string) => ({
      ...member(i, name),
      email: `${name.toLowerCase().replace(' ', '.')}@berlin.example.com`,
      status,
    })
    const { lines } = await print(
      columnsOf(members),
      [[row(1, 'Margaret Sutherland', 'inactive')], [row(2, 'Katherine Sutherland', 'active')]],
      80,
    )
    expect(lines[2]).toBe(
      'mem_00002  Katherine Sutherland  katherine.sutherland@berlin.example.com  active',
    )
  })

  it('--wide pads free text to a cap, so one long name does not push every row', async () => {
    const long = 'N'.repeat(86)
    const table = await startTable(columnsOf(members), [member(1, long), ...page(2, 3)], {
      color: false,
      width: Infinity,
      mayDrop: true,
    })
    const lines = table
      .render([member(1, long), ...page(2, 3)])
      .trimEnd()
      .split('\n')
    expect(lines[1]).toContain(`  ${long}  `)
    expect(lines[2]).toContain(`  Person 0002${' '.repeat(WIDE_FREE_WIDTH - 11)}  person.0002`)
    expect(table.dropped).toEqual([])
  })
})

describe('bulk failure table', () => {
  const failure = (row: number, reason: string) => ({
    row,
    status: 'failed',
    reason,
    email: `person.${row}@example.org`,
  })
  const columns = columnsOf(memberFailures)
  const taken = 'email: The email has already been taken by another member of this chamber.'

  it.each([80, 120])(
    'at %i columns the reason gets the spare width, also for a later, longer one',
    async (width) => {
      const { lines } = await print(
        columns,
        [[failure(1, 'phone: too short')], [failure(2, taken)]],
        width,
      )
      expect(headerOf(lines)).toEqual(['row', 'status', 'reason', 'email'])
      const expected = width === 120 ? taken : `${taken.slice(0, width - 36)}…`
      expect(lines[2]).toBe(`2    failed  ${expected}  person.2@example.org`)
      expect(stringWidth(lines[2]!)).toBeLessThanOrEqual(width)
    },
  )

  it('at 60 columns leaves out the e-mail: the reason keeps its 20 cells and gets the rest', async () => {
    const { lines, dropped } = await print(columns, [[failure(1, taken)]], 60)
    expect(dropped).toEqual(['email'])
    expect(lines[1]).toBe(`1    failed  ${taken.slice(0, 46)}…`)
  })

  it('cuts a reason before an e-mail address or an id in it, never inside one', async () => {
    const member = 'email: ada.lovelace@munich.example.com is already a member of ch_0003'
    const at = async (width: number) =>
      (await print(columns, [[failure(1, member)]], width)).lines[1]
    expect(await at(40)).toBe('1    failed  email: …')
    // An ordinary word is cut where the room ends.
    expect(await at(60)).toBe('1    failed  email: ada.lovelace@munich.example.com is alre…')
    const { lines } = await print(columns, [[failure(1, 'duplicate of the member mb_000001')]], 40)
    expect(lines[1]).toBe('1    failed  duplicate of the member …')
    expect(await at(80)).toBe(
      '1    failed  email: ada.lovelace@munich.example.com is al…  person.1@example.org',
    )
  })
})
