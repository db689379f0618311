import stringWidth from 'string-width'
import { describe, expect, it } from 'vitest'
import { cells, fitText, loadCells, wrapText } from '../../src/io/wrap.js'

const WIDTHS = [40, 60, 80, 120] as const

// The keyring warning, the bulk re-run refusal and a note, as long as they get.
const ERROR =
  'error: an earlier run of this input against chamber ch_0003 at http://127.0.0.1:36685/v2 ' +
  'finished with failures (3 created, 1 failed); run the same command with --resume to ' +
  'continue it, or with --skip-existing to send only the rows not already on the server'
const NOTE =
  'Nothing to resume: no unfinished run of this input against chamber ch_0004 at ' +
  'http://127.0.0.1:36685/v2; sending only the rows not already on the server, as ' +
  '--skip-existing does'
const BLOCK = [
  'Logged in to http://127.0.0.1:36685/v2 as client sandbox-client (profile default)',
  '  API version:   v2',
  '  secret:        stored in /home/ann/.config/chamberctl/config.json (mode 0600)',
].join('\n')

const words = (text: string) => text.split(/\s+/).filter(Boolean)

describe('wrapText', () => {
  it.each(WIDTHS)('at %i columns fits every line and keeps every word whole', (width) => {
    for (const text of [ERROR, NOTE, BLOCK]) {
      const wrapped = wrapText(text, width)
      for (const line of wrapped.split('\n')) expect(cells(line)).toBeLessThanOrEqual(width)
      expect(words(wrapped)).toEqual(words(text))
    }
  })

  it('leaves a pipe (no width) and a line that fits alone', () => {
    expect(wrapText(ERROR, undefined)).toBe(ERROR)
    expect(wrapText('error: short', 40)).toBe('error: short')
  })

  it('hangs continuation lines under the text after a label, else two cells in', () => {
    expect(wrapText(ERROR, 40).split('\n').slice(0, 3)).toEqual([
      'error: an earlier run of this input',
      '       against chamber ch_0003 at',
      '       http://127.0.0.1:36685/v2',
    ])
    // "Nothing to resume:" is a sentence, not a label: two cells in.
    expect(wrapText(NOTE, 40).split('\n')[1]).toMatch(/^ {2}\S/)
    // A `label: value` line of a block hangs under its value.
    expect(wrapText(BLOCK, 60).split('\n').slice(3)).toEqual([
      '  secret:        stored in',
      '                 /home/ann/.config/chamberctl/config.json',
      '                 (mode 0600)',
    ])
  })

  it('moves a word too wide to hang as far left as it must, and never splits one wider than the line', () => {
    const path = '/home/anna-maria/.config/chamberctl/config.json'
    expect(wrapText(`  secret:        stored in ${path} (mode 0600)`, 52).split('\n')).toEqual([
      '  secret:        stored in',
      `    ${path}`,
      '                 (mode 0600)',
    ])
    expect(wrapText(`  secret:        stored in ${path}`, 47).split('\n')[1]).toBe(path)
    // The first word too, when the label leaves it no room.
    expect(wrapText('  email:           prompted.person@tour.example.com', 40).split('\n')).toEqual(
      ['  email:', '    prompted.person@tour.example.com'],
    )
    const email = 'a.very.long.local.part.of.an.address.for.a.test@members.example.com'
    expect(wrapText(`error: ${email} is already a member`, 40).split('\n')).toEqual([
      `error: ${email}`,
      '       is already a member',
    ])
  })

  it('counts wide characters as the terminal shows them', async () => {
    await loadCells()
    const text = '会員の名前 東京商工会議所 大阪商工会議所 名古屋商工会議所 京都商工会議所'
    for (const width of WIDTHS) {
      for (const line of wrapText(text, width).split('\n')) {
        expect(stringWidth(line)).toBeLessThanOrEqual(width)
      }
    }
    expect(wrapText(text, 40).split('\n')[0]).toBe('会員の名前 東京商工会議所 大阪商工会議所')
  })
})

describe('a label laid out by the caller', () => {
  it('hangs under it whatever its width, and moves a word left only when it must', () => {
    const label = 'name:       '
    expect(wrapText('Tour Chamber of Commerce and Industry', 40, { label }).split('\n')).toEqual([
      'name:       Tour Chamber of Commerce and',
      '            Industry',
    ])
    expect(
      wrapText('prompted.person@tour.example.com', 40, { label: 'email:           ' }).split('\n'),
    ).toEqual(['email:', '  prompted.person@tour.example.com'])
  })
})

describe('cells', () => {
  it('is exact for ASCII and never below the width a terminal shows', () => {
    expect(cells('error: x')).toBe(8)
    for (const text of ['Müller', '東京', '👩‍💻 dev', 'e\u0301']) {
      expect(cells(text)).toBeGreaterThanOrEqual(stringWidth(text))
    }
  })
})

describe('fitText', () => {
  it('loads string-width for text beyond ASCII and counts it exactly', async () => {
    const text = `${'Müller '.repeat(8)}Schmidt`
    const fitted = await fitText(text, 40)
    expect(fitted.split('\n')[0]).toBe('Müller Müller Müller Müller Müller')
    expect(cells('Müller')).toBe(6)
  })
})
