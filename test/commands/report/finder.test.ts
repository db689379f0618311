// The duplicate finder apart from the network: a source of pages in memory, an injectable hash.
// Keys of one hash are never a group; a page that changed between the two reads makes the
// finder read its whole chamber again.
import { describe, expect, it } from 'vitest'
import { findDuplicates } from '../../../src/commands/report/finder.js'
import type { Source } from '../../../src/commands/report/finder.js'
import { KeyIndex, hash53 } from '../../../src/commands/report/key-index.js'

type Member = { id: string; name: string; email?: unknown }

// Chambers of members, served in pages of `size`; `later` replaces them for every read after
// the first walk (the directory changed in between). Records what was read again.
function memorySource(chambers: Member[][], size = 2, later?: Member[][]) {
  const again: string[] = []
  let walked = false
  const now = () => (walked && later ? later : chambers)
  const source: Source = {
    async *pages() {
      for (const [chamber, members] of chambers.entries()) {
        for (let start = 0; start < members.length; start += size) {
          yield {
            chamber,
            page: start / size + 1,
            perPage: size,
            records: members.slice(start, start + size),
          }
        }
      }
      walked = true
    },
    page: ({ chamber, page, perPage }) => {
      again.push(`${chamber}:${page}`)
      const start = (page - 1) * perPage!
      return Promise.resolve(now()[chamber]!.slice(start, start + perPage!))
    },
    async *chamber(chamber) {
      again.push(`${chamber}:all`)
      yield now()[chamber]!
    },
  }
  return { source, again }
}

const m = (id: string, email?: unknown): Member => ({ id, name: `Name ${id}`, email })

const DIRECTORY = [
  [m('a1', 'ada@example.com'), m('a2', 'bob@example.com'), m('a3', 'BOB@example.com')],
  [m('b1', 'carl@example.com'), m('b2', 'Ada@Example.COM'), m('b3'), m('b4', 'zo\u00eb@x.example')],
  [m('c1', 'zoe\u0308@X.example'), m('c2', 'dora@example.com')],
  [m('d1', 'erin@example.com'), m('d2', 'fay@example.com')],
]

const groupsOf = (found: Awaited<ReturnType<typeof findDuplicates>>) =>
  found.groups.map((group) => [group.key, group.copies.map((copy) => copy.id)])

describe('findDuplicates', () => {
  it('groups by e-mail key: case, NFC and NFD, across chambers and within one', async () => {
    const { source, again } = memorySource(DIRECTORY)
    const found = await findDuplicates(source)
    expect(groupsOf(found)).toEqual([
      ['ada@example.com', ['a1', 'b2']],
      ['bob@example.com', ['a2', 'a3']],
      ['zo\u00eb@x.example', ['b4', 'c1']],
    ])
    expect(found.members).toBe(11)
    expect(found.candidates).toBe(6)
    // Only the pages holding candidates are read again: not chamber 3's.
    expect(again.sort()).toEqual(['0:1', '0:2', '1:1', '1:2', '2:1'])
  })

  it('reports no group when different keys share a hash', async () => {
    const { source } = memorySource(DIRECTORY)
    // Every key one hash: everything is a candidate, and the exact keys decide.
    const found = await findDuplicates(source, { hash: () => 42 })
    expect(groupsOf(found)).toEqual(groupsOf(await findDuplicates(memorySource(DIRECTORY).source)))
    const unique = memorySource([[m('x1', 'one@example.com'), m('x2', 'two@example.com')]])
    const none = await findDuplicates(unique.source, { hash: () => 42 })
    expect(none.groups).toEqual([])
    expect(none.candidates).toBe(2)
  })

  it('reads a chamber whole again when its pages changed between the reads', async () => {
    // A member added at the front of chamber 0 shifts bob's copies onto other pages.
    const later = [[m('a0', 'new@example.com'), ...DIRECTORY[0]!], ...DIRECTORY.slice(1)]
    const { source, again } = memorySource(DIRECTORY, 2, later)
    const found = await findDuplicates(source)
    expect(groupsOf(found)).toContainEqual(['bob@example.com', ['a2', 'a3']])
    expect(again).toContain('0:all')
  })

  it('finds nothing in a directory without shared addresses, reading nothing again', async () => {
    const { source, again } = memorySource([[m('a', 'a@x.example')], [m('b', 'b@x.example')]])
    const found = await findDuplicates(source)
    expect(found.groups).toEqual([])
    expect(again).toEqual([])
  })
})

describe('KeyIndex', () => {
  it('holds 8 bytes a key, growing by doubling', () => {
    const index = new KeyIndex()
    for (let i = 0; i < 5000; i++) index.add(`member${i}@example.com`)
    expect(index.size).toBe(5000)
    expect(index.bytes).toBe(8192 * 8)
    expect(index.candidates().positions).toEqual([])
  })

  it('hashes to a safe integer of at most 53 bits', () => {
    for (const key of ['', 'a', 'ada@example.com', 'zo\u00eb@x.example']) {
      expect(Number.isSafeInteger(hash53(key))).toBe(true)
    }
    expect(hash53('ada@example.com')).not.toBe(hash53('ada@example.co'))
  })
})
