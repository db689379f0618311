// A property of `diff`: a fixture seeded into an empty sandbox compares equal to it (exit 0), and
// with k changes planted at random (each on a record of its own: a field, a record added, one
// removed) it reports exactly k differences (exit 1). E-mails change letter case at random: the
// same member. Fixed seed (test/helpers/fast-check.ts).
import { describe, expect, it } from 'vitest'
import fc from '../../helpers/fast-check.js'
import { useSandbox, useTempDirs } from '../../helpers/sandbox.js'
import { useCommands } from '../../helpers/run-main.js'
import { lines } from '../../helpers/output.js'
import { writeFixture } from './helpers.js'
import type { Chamber, Member } from './helpers.js'

const sandbox = useSandbox({ empty: true })
const { run } = useCommands(sandbox)
const tempDir = useTempDirs('chamberctl-diff-property-')

type Fixture = { chambers: (Chamber & { members: Member[] })[] }

const word = fc.stringMatching(/^[A-Za-zÀ-ÿ]{1,8}$/)

// Chambers with names unique in any letter case; a subsidiary's hq is an earlier hq.
const fixtures = fc
  .array(
    fc.record({
      word,
      city: word,
      subsidiary: fc.boolean(),
      hq: fc.nat(),
      members: fc.array(
        fc.record({ word, phone: fc.option(fc.stringMatching(/^\+?[0-9]{3,8}$/)) }),
        {
          maxLength: 4,
        },
      ),
    }),
    { minLength: 1, maxLength: 5 },
  )
  .map((drafts) => {
    const chambers: Fixture['chambers'] = []
    drafts.forEach((draft, i) => {
      const hqs = chambers.filter((c) => c.type === 'hq')
      const subsidiary = draft.subsidiary && hqs.length > 0
      chambers.push({
        key: `c${i}`,
        name: `C${i} ${draft.word}`,
        type: subsidiary ? 'subsidiary' : 'hq',
        ...(subsidiary ? { hq: hqs[draft.hq % hqs.length]!.key } : {}),
        address: { city: draft.city },
        members: draft.members.map((m, j) => ({
          name: m.word,
          email: `m${j}.${m.word}@example.com`,
          ...(m.phone === null ? {} : { phone: m.phone }),
          membership_type: 'standard',
        })),
      })
    })
    return { chambers } as Fixture
  })

type Change = { kind: number; at: number }
const changes = fc.array(fc.record({ kind: fc.nat(5), at: fc.nat() }), { maxLength: 6 })

// Plants each change on a record no other change touched; returns how many it planted.
function plant(fixture: Fixture, list: Change[]): number {
  const touched = new Set<string>()
  // Chambers with a member changed: not removed, or that change would not show.
  const busy = new Set<string>()
  let planted = 0
  const pick = <T>(items: T[], at: number, id: (item: T) => string) => {
    const free = items.filter((item) => !touched.has(id(item)))
    const item = free[at % Math.max(free.length, 1)]
    if (item !== undefined) touched.add(id(item))
    return item
  }
  const members = () => fixture.chambers.flatMap((c) => c.members.map((m) => ({ c, m })))
  const referenced = (c: Chamber) => fixture.chambers.some((other) => other.hq === c.key)
  list.forEach(({ kind, at }, n) => {
    if (kind === 0) {
      const found = pick(members(), at, ({ m }) => m.email)
      if (!found) return
      found.m.phone = `${found.m.phone ?? ''}9`
      busy.add(found.c.key)
      planted++
    } else if (kind === 1) {
      const found = pick(members(), at, ({ m }) => m.email)
      if (!found) return
      found.c.members.splice(found.c.members.indexOf(found.m), 1)
      busy.add(found.c.key)
      planted++
    } else if (kind === 2) {
      const chamber = fixture.chambers[at % fixture.chambers.length]!
      chamber.members.push({ name: 'New', email: `new${n}@example.com`, membership_type: 'gold' })
      touched.add(`new${n}@example.com`)
      busy.add(chamber.key)
      planted++
    } else if (kind === 3) {
      const chamber = pick(fixture.chambers, at, (c) => c.key)
      if (chamber) chamber.address.city += 'x'
      if (chamber) planted++
    } else if (kind === 4) {
      fixture.chambers.push({
        key: `n${n}`,
        name: `New ${n}`,
        type: 'hq',
        address: {},
        members: [],
      })
      touched.add(`n${n}`)
      planted++
    } else {
      // Removed from the fixture: only on the server (its members are not compared).
      const free = fixture.chambers.filter(
        (c) => !referenced(c) && !busy.has(c.key) && !touched.has(c.key),
      )
      const chamber = pick(free, at, (c) => c.key)
      if (!chamber) return
      fixture.chambers.splice(fixture.chambers.indexOf(chamber), 1)
      planted++
    }
  })
  return planted
}

const write = (name: string, fixture: unknown) => writeFixture(tempDir(), name, fixture)

describe('diff, as a property', () => {
  it('is empty against what the fixture seeded, and reports exactly k planted changes', async () => {
    await fc.assert(
      fc.asyncProperty(fixtures, changes, fc.boolean(), async (fixture, list, upper) => {
        await fetch(`${sandbox().sandbox.url}/_sandbox/reset`, { method: 'POST' })
        const seed = await run(['seed', write('f.json', fixture), '--skip-existing'])
        expect(seed.code, seed.stderr).toBe(0)
        const copy = structuredClone(fixture)
        if (upper)
          for (const c of copy.chambers)
            for (const m of c.members) m.email = m.email.replace(/[a-z]/g, (c) => c.toUpperCase())
        const same = await run(['diff', write('same.json', copy), '--members'])
        expect({ code: same.code, stdout: same.stdout }, same.stderr).toEqual({
          code: 0,
          stdout: '',
        })
        const k = plant(copy, list)
        const changed = await run(['diff', write('changed.json', copy), '--members'])
        expect(lines(changed.stdout), changed.stderr).toHaveLength(k)
        expect(changed.code).toBe(k > 0 ? 1 : 0)
      }),
      { numRuns: 25 },
    )
  })
})
