import { describe, expect, it } from 'vitest'
import type { OutputFormat } from '../../src/io/format.js'
import { writeError } from '../../src/io/error-output.js'
import { createTestIO } from '../helpers/test-io.js'
import { ANSI } from './fixtures.js'

const notFound = { status: 404, code: 'not_found', message: 'chamber "c9" not found' }
const invalid = {
  status: 422,
  code: 'validation_failed',
  message: 'the server rejected the chamber',
  fields: { name: ['is required'], 'address.city': ['must be a string', 'is too long'] },
}

describe('writeError', () => {
  it.each<OutputFormat>(['table', 'tsv', 'csv'])('%s: one error line on stderr only', (format) => {
    const t = createTestIO()
    writeError(t.io, notFound, { format, color: false })
    expect(t.stderr()).toBe('error: chamber "c9" not found\n')
    expect(t.stdout()).toBe('')
  })

  it('colours the word error: red when colour is on, and only then', () => {
    const t = createTestIO({ stderrIsTTY: true })
    writeError(t.io, notFound, { format: 'table', color: true })
    expect(t.stderr()).toBe('\u001b[31merror:\u001b[39m chamber "c9" not found\n')
    const plain = createTestIO({ stderrIsTTY: true })
    writeError(plain.io, notFound, { format: 'table', color: false })
    expect(plain.stderr()).not.toMatch(ANSI)
  })

  it('adds an aligned field table, one line per message', () => {
    const t = createTestIO()
    writeError(t.io, invalid, { format: 'table', color: false })
    expect(t.stderr()).toBe(
      'error: the server rejected the chamber\n' +
        '  name          is required\n' +
        '  address.city  must be a string\n' +
        '  address.city  is too long\n',
    )
  })

  it.each<OutputFormat>(['json', 'ndjson'])('%s: also one JSON line, with the fields', (format) => {
    const t = createTestIO()
    writeError(t.io, invalid, { format, color: false })
    const lines = t.stderr().trimEnd().split('\n')
    expect(lines[0]).toBe('error: the server rejected the chamber')
    expect(lines).toHaveLength(5)
    expect(lines[4]).toBe(
      '{"error":{"status":422,"code":"validation_failed","message":"the server rejected the chamber",' +
        '"fields":{"name":["is required"],"address.city":["must be a string","is too long"]}}}',
    )
    expect(t.stdout()).toBe('')
  })

  it('json: fields is {} when there are none, and status may be null', () => {
    const t = createTestIO()
    writeError(
      t.io,
      { status: null, code: 'network', message: 'connection refused' },
      { format: 'json', color: true },
    )
    const [human, json] = t.stderr().trimEnd().split('\n')
    expect(human).toMatch(ANSI)
    expect(json).not.toMatch(ANSI)
    expect(JSON.parse(json as string)).toEqual({
      error: { status: null, code: 'network', message: 'connection refused', fields: {} },
    })
  })

  it('shows control characters from a server message escaped', () => {
    const t = createTestIO()
    writeError(
      t.io,
      { ...notFound, message: 'bad\u001b[2J\rthing\n' },
      { format: 'json', color: false },
    )
    const [human, json] = t.stderr().trimEnd().split('\n')
    expect(human).toBe('error: bad\\x1b[2J\\rthing')
    // The JSON form carries the message as it was.
    expect(JSON.parse(json as string).error.message).toBe('bad\u001b[2J\rthing\n')
  })
})
