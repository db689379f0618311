// The screen model the pseudo-terminal tests read their screens with.
import { describe, expect, it } from 'vitest'
import { render } from './pty.js'

describe('render', () => {
  it('keeps what a spinner drew over and erased out of the screen', () => {
    const frames = '\u001b[?25l⠋ Loading\r\u001b[K⠙ Loading\u001b[1G\u001b[0K\u001b[?25h'
    expect(render(`${frames}id  name\r\nch_1  One\r\n`)).toBe('id  name\nch_1  One')
  })

  it('overwrites cells in place and erases the line before, after or all of it', () => {
    expect(render('abcdef\rXY')).toBe('XYcdef')
    expect(render('abcdef\u001b[3D\u001b[K')).toBe('abc')
    expect(render('abcdef\u001b[3D\u001b[1K')).toBe('    ef')
    expect(render('abcdef\u001b[2K')).toBe('')
  })

  it('moves up over lines and clears the display, dropping colours', () => {
    expect(render('one\r\ntwo\u001b[1A\r\u001b[31mONE\u001b[39m')).toBe('ONE\ntwo')
    expect(render('one\r\ntwo\u001b[2J\u001b[Hthree')).toBe('three')
    // A line feed alone keeps the column, as on a terminal (the pty adds the carriage return).
    expect(render('ab\ncd')).toBe('ab\n  cd')
  })

  it('counts a wide character as two cells and a tab to the next stop', () => {
    expect(render('名前\rX')).toBe('X前')
    expect(render('a\tb')).toBe('a       b')
  })
})
