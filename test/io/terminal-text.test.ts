import { describe, expect, it } from 'vitest'
import { escapeForTerminal, escapeJsonForTerminal } from '../../src/io/terminal-text.js'

describe('escapeForTerminal', () => {
  it('shows C0 and C1 control characters and DEL escaped so they cannot drive the terminal', () => {
    expect(escapeForTerminal('c1\u001b[2J')).toBe('c1\\x1b[2J')
    expect(escapeForTerminal('a\u001b]52;c;aGk=\u0007b\nc\td\re\u009b\u007f')).toBe(
      'a\\x1b]52;c;aGk=\\x07b\\nc\\td\\re\\x9b\\x7f',
    )
  })

  it('shows bidi overrides and isolates, zero-width and other invisible characters', () => {
    expect(escapeForTerminal('admin\u202egpj.exe')).toBe('admin\\u202egpj.exe')
    expect(escapeForTerminal('\u2066x\u2069\u200e\u200f\u061c')).toBe(
      '\\u2066x\\u2069\\u200e\\u200f\\u061c',
    )
    expect(escapeForTerminal('a\u200bb\u200cc\u200dd\u2060e\ufeff\u00ad')).toBe(
      'a\\u200bb\\u200cc\\u200dd\\u2060e\\ufeff\\xad',
    )
    // Line and paragraph separators, tag characters (hidden text), a lone surrogate.
    expect(escapeForTerminal('\u2028\u2029\u{e0041}\ud800')).toBe('\\u2028\\u2029\\u{e0041}\\ud800')
  })

  it('keeps emoji sequences and subdivision flags, which hide nothing', () => {
    for (const text of [
      '👩‍💻',
      '👨🏽‍🚀',
      '🏳️‍🌈',
      '🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}',
    ]) {
      expect(escapeForTerminal(text)).toBe(text)
    }
    // A joiner between letters, or a tag outside a flag, is not part of one.
    expect(escapeForTerminal('👩\u200dx')).toBe('👩\\u200dx')
    expect(escapeForTerminal('x\u{e0067}\u{e007f}')).toBe('x\\u{e0067}\\u{e007f}')
  })

  it('leaves ordinary text of any script, and backslashes, as they are', () => {
    const text = 'Zürich Straße 1, 東京, القاهرة, Ελλάδα, C:\\dir, émoji 🎉'
    expect(escapeForTerminal(text)).toBe(text)
  })

  it('keeps the characters it is told to keep', () => {
    expect(escapeForTerminal('line 1\nline 2\t\u001b', '\n\t')).toBe('line 1\nline 2\t\\x1b')
  })
})

describe('escapeJsonForTerminal', () => {
  it('writes the same characters as JSON escapes, so the JSON is the same value', () => {
    const value = { id: 'c1\u001b[2J\u009b', name: 'x\u202ey\u200b\u007f', list: [1, '\u2028'] }
    for (const json of [JSON.stringify(value), JSON.stringify(value, null, 2)]) {
      const shown = escapeJsonForTerminal(json)
      // eslint-disable-next-line no-control-regex
      expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u202e\u2028]/)
      expect(JSON.parse(shown)).toEqual(value)
    }
    expect(escapeJsonForTerminal('"\u009b\u{e0041}"')).toBe('"\\u009b\\udb40\\udc41"')
  })

  it('keeps the line breaks and indentation of pretty JSON', () => {
    const json = JSON.stringify({ a: ['b'] }, null, 2)
    expect(escapeJsonForTerminal(json)).toBe(json)
  })
})
