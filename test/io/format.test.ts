import { describe, expect, it } from 'vitest'
import { UsageError } from '../../src/errors.js'
import { chooseFormat, OUTPUT_FORMATS, parseFields } from '../../src/io/format.js'

function usageError(fn: () => unknown): UsageError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return error as UsageError
  }
  throw new Error('expected a UsageError')
}

describe('chooseFormat', () => {
  it('defaults to a table on a TTY and to tab-separated rows in a pipe', () => {
    expect(chooseFormat({}, true)).toBe('table')
    expect(chooseFormat({}, false)).toBe('tsv')
  })

  it('takes --json as json, TTY or not', () => {
    expect(chooseFormat({ json: true }, true)).toBe('json')
    expect(chooseFormat({ json: true }, false)).toBe('json')
    expect(chooseFormat({ json: false }, false)).toBe('tsv')
  })

  it.each(OUTPUT_FORMATS)('takes -o %s as given, TTY or not', (format) => {
    expect(chooseFormat({ output: format }, true)).toBe(format)
    expect(chooseFormat({ output: format }, false)).toBe(format)
  })

  it('is lenient about case and surrounding spaces', () => {
    expect(chooseFormat({ output: 'NDJSON ' }, true)).toBe('ndjson')
  })

  it('accepts --json with -o json', () => {
    expect(chooseFormat({ json: true, output: 'json' }, true)).toBe('json')
  })

  it('refuses --json with another -o, naming the valid formats on one line', () => {
    const error = usageError(() => chooseFormat({ json: true, output: 'csv' }, false))
    expect(error.message).toMatch(/--json/)
    expect(error.message).toMatch(/csv/)
    expect(error.message).toContain('table, tsv, json, ndjson, csv, yaml')
    expect(error.message).not.toContain('\n')
  })

  it('refuses an unknown format, naming it and the valid ones', () => {
    const error = usageError(() => chooseFormat({ output: 'xml' }, true))
    expect(error.message).toBe(
      'unknown output format "xml": use one of table, tsv, json, ndjson, csv, yaml',
    )
    expect(error.exitCode).toBe(2)
  })

  it('refuses an unknown format even with --json', () => {
    usageError(() => chooseFormat({ output: 'xml', json: true }, true))
  })
})

describe('parseFields', () => {
  it('splits on commas, trims, and drops empty entries', () => {
    expect(parseFields(' id , name,,status, ')).toEqual(['id', 'name', 'status'])
  })

  it('keeps dotted paths, trimming their segments', () => {
    expect(parseFields('id,address.city, address . country')).toEqual([
      'id',
      'address.city',
      'address.country',
    ])
  })

  it('drops repeated fields, keeping the first position', () => {
    expect(parseFields('name,id,name')).toEqual(['name', 'id'])
  })

  it.each(['', ' ', ',', ' , ,'])('refuses %j, which names no field', (value) => {
    expect(usageError(() => parseFields(value)).message).toMatch(/--fields/)
  })

  it.each(['address..city', '.city', 'address.'])('refuses the broken path %j', (value) => {
    expect(usageError(() => parseFields(value)).message).toContain(value)
  })
})
