// What a person sees at 60, 80 and 120 columns: no line of a table or a record view is wider than
// the terminal; ids, e-mails and dates are printed whole (free text gives way, columns are left
// out, least important first, and said so); the columns depend on the width alone,
// not on what the page holds; date-times in tables to the second.
import stringWidth from 'string-width'
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it } from 'vitest'
import { members } from '../../src/api/resources/index.js'
import { BIG_CHAMBER } from '../helpers/sandbox.js'
import { useDemoSandbox } from '../helpers/run-main.js'
import { lines } from '../helpers/output.js'

const { demo, run } = useDemoSandbox()
const WIDTHS = [60, 80, 120]

async function atWidth(args: string[], width: number) {
  const result = await run(args, {
    stdoutIsTTY: true,
    stderrIsTTY: true,
    stdoutWidth: width,
    env: { FORCE_COLOR: '1' },
  })
  expect(result.code, result.stderr).toBe(0)
  // Coloured, as a terminal shows it; measured without the colour codes.
  const stdout = stripVTControlCharacters(result.stdout)
  const shown = lines(stdout)
  for (const line of [...shown, ...lines(stripVTControlCharacters(result.stderr))]) {
    expect(stringWidth(line), line).toBeLessThanOrEqual(width)
  }
  return { ...result, stdout, shown }
}

// Every date-time printed is whole: never cut short with "…"; in tables, to the second (a
// record view shows them as they came).
function expectWholeDates(text: string, table = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/): void {
  for (const [date] of text.matchAll(/\d{4}-\d\d-\d\dT[\d:.Z]*…?/g)) {
    expect(date).toMatch(table)
  }
}

const header = (shown: string[]) => shown[0]!.split(/ {2,}/)

describe.each(WIDTHS)('at %i columns', (width) => {
  it('members list: every id and e-mail of the page whole', async () => {
    const { stdout, shown } = await atWidth(['members', 'list', BIG_CHAMBER], width)
    const page = demo.members.filter((m) => m.chamber_id === BIG_CHAMBER).slice(0, 20)
    expect(shown).toHaveLength(21)
    const withEmail = header(shown).includes('email')
    page.forEach((member, i) => {
      expect(shown[i + 1]!.startsWith(`${member.id}  `)).toBe(true)
      if (withEmail) expect(shown[i + 1]).toContain(`  ${member.email}`)
    })
    expect(withEmail).toBe(width >= 80)
    expectWholeDates(stdout)
  })

  it.each([
    ['members', 'list', BIG_CHAMBER],
    ['events', 'list', BIG_CHAMBER],
    ['chambers', 'list'],
  ])('%s %s: the same columns with 3 rows and with 20', async (...args) => {
    const few = await atWidth([...args, '--per-page', '3'], width)
    const many = await atWidth([...args, '--per-page', '20'], width)
    expect(header(few.shown)).toEqual(header(many.shown))
    // The main text column keeps 20 cells, or its whole value, before any later column.
    const at = header(many.shown).findIndex((name) => name === 'name' || name === 'title')
    const next = header(many.shown)[at + 1]
    if (next !== undefined) {
      const start = many.shown[0]!.indexOf(`  ${header(many.shown)[at]!}`) + 2
      const end = many.shown[0]!.indexOf(`  ${next}`)
      // Narrower only when every value is whole.
      if (end - start < 20) expect(many.stdout).not.toContain('…')
    }
  })

  it('chambers list: every id whole', async () => {
    const { stdout, shown } = await atWidth(['chambers', 'list'], width)
    demo.chambers.forEach((chamber, i) => {
      expect(shown[i + 1]!.startsWith(`${chamber.id}  `)).toBe(true)
    })
    expectWholeDates(stdout)
  })

  it('events list: every id and date whole', async () => {
    const { stdout, shown } = await atWidth(['events', 'list', BIG_CHAMBER], width)
    const events = demo.events.filter((e) => e.chamber_id === BIG_CHAMBER)
    expect(shown).toHaveLength(events.length + 1)
    for (const event of events) expect(stdout).toContain(`${event.id}  `)
    expectWholeDates(stdout)
  })

  it('chambers get --include: the record and its members and events, ids and e-mails whole', async () => {
    const { stdout } = await atWidth(
      ['chambers', 'get', 'ch_0005', '--include', 'members,events'],
      width,
    )
    expect(stdout).toMatch(/^id: +ch_0005$/m)
    // At 60 columns the members' e-mails do not fit beside 20 cells of name: left out whole.
    const email = (address: string) => (width >= 80 ? `  ${address.replace(/\./g, '\\.')}` : '')
    for (const member of demo.members.filter((m) => m.chamber_id === 'ch_0005')) {
      expect(stdout).toMatch(new RegExp(`^${member.id}  .*${email(member.email)}`, 'm'))
    }
    expectWholeDates(stdout, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/)
  })

  it('says once which columns it left out, and --wide leaves out none', async () => {
    const fitted = await atWidth(['members', 'list', BIG_CHAMBER], width)
    const notes = lines(fitted.stderr).filter((line) => line.startsWith('Not shown'))
    expect(notes.length).toBeLessThanOrEqual(1)
    const wide = await run(['members', 'list', BIG_CHAMBER, '--wide'], {
      stdoutIsTTY: true,
      stdoutWidth: width,
      env: { NO_COLOR: '1' },
    })
    expect(lines(wide.stdout)[0]!.split(/ {2,}/)).toEqual(members.columns)
    expect(wide.stderr).not.toContain('Not shown')
  })
})
