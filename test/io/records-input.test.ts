import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ExitCode, UsageError } from '../../src/errors.js'
import { findJsonSyntaxError } from '../../src/io/json-syntax.js'
import {
  InputError,
  readJsonObject,
  readRecordsInput,
  type RecordsInput,
} from '../../src/io/records-input.js'

let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chamberctl-records-'))
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function file(name: string, content: string | Buffer): Promise<string> {
  const path = join(dir, name)
  await writeFile(path, content)
  return path
}

// A stdin that delivers the given chunks and then ends, as a pipe would.
function stdinOf(...chunks: (string | Buffer)[]): PassThrough {
  const stream = new PassThrough()
  for (const chunk of chunks) stream.write(chunk)
  stream.end()
  return stream
}

// A stdin that must not be read when a path is given: it never ends.
function unusedStdin(): PassThrough {
  return new PassThrough()
}

async function read(name: string, content: string | Buffer, allowBulk?: boolean) {
  const path = await file(name, content)
  return readRecordsInput(path, unusedStdin(), allowBulk === undefined ? {} : { allowBulk })
}

function bulk(input: RecordsInput) {
  if (input.kind !== 'bulk') throw new Error(`expected a bulk input, got ${input.kind}`)
  return input
}

async function inputError(promise: Promise<unknown>): Promise<InputError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  if (!(error instanceof InputError)) throw new Error(`expected an InputError, got ${error}`)
  return error
}

describe('single JSON object', () => {
  it('reads one object from a .json file', async () => {
    const input = await read('one.json', '{\n  "name": "Jane",\n  "email": "j@example.org"\n}\n')
    expect(input).toEqual({ kind: 'single', value: { name: 'Jane', email: 'j@example.org' } })
  })

  it('reads one object by content when the extension says nothing', async () => {
    const input = await read('one.txt', '  {"name": "Jane", "tags": ["a"]}  ')
    expect(input).toEqual({ kind: 'single', value: { name: 'Jane', tags: ['a'] } })
  })

  it('is accepted when bulk is not allowed', async () => {
    const input = await read('one-only.json', '{"name": "Jane"}', false)
    expect(input).toEqual({ kind: 'single', value: { name: 'Jane' } })
  })
})

describe('JSON array', () => {
  it('gives one row per element, numbered from 1', async () => {
    const input = bulk(await read('many.json', '[{"name": "A"}, {"name": "B"}, {"name": "C"}]'))
    expect(input.format).toBe('json')
    expect(input.rows).toEqual([
      { row: 1, value: { name: 'A' } },
      { row: 2, value: { name: 'B' } },
      { row: 3, value: { name: 'C' } },
    ])
  })

  it('is detected by content', async () => {
    const input = bulk(await read('many.data', '\n  [\n{"n": 1}\n]\n'))
    expect(input.format).toBe('json')
    expect(input.rows).toEqual([{ row: 1, value: { n: 1 } }])
  })

  it('refuses an element that is not an object, naming its index and row', async () => {
    const error = await inputError(read('bad-element.json', '[{"a": 1}, "b", {"c": 3}]'))
    expect(error.message).toBe(
      `${join(dir, 'bad-element.json')}: array element [1] (row 2): expected a JSON object, ` +
        'found a string',
    )
    expect(error.row).toBe(2)
  })

  it.each([
    ['null', 'null'],
    ['[1]', 'an array'],
    ['7', 'a number'],
  ])('names the element type %s', async (element, described) => {
    const error = await inputError(read('bad-type.json', `[{"a": 1}, ${element}]`))
    expect(error.message).toContain(`found ${described}`)
  })
})

describe('NDJSON', () => {
  it('skips blank lines and accepts CRLF; row is the n-th record, line the file line', async () => {
    const text = '{"name":"A"}\r\n\r\n   \r\n{"name":"B","n":2}\r\n\t\r\n{"name":"C"}\r\n\r\n\r\n'
    const input = bulk(await read('people.ndjson', text))
    expect(input.format).toBe('ndjson')
    expect(input.rows).toEqual([
      { row: 1, line: 1, value: { name: 'A' } },
      { row: 2, line: 4, value: { name: 'B', n: 2 } },
      { row: 3, line: 6, value: { name: 'C' } },
    ])
  })

  it('is chosen by the .jsonl extension even for a single line', async () => {
    const input = bulk(await read('one.jsonl', '{"name":"A"}\n'))
    expect(input.format).toBe('ndjson')
    expect(input.rows).toEqual([{ row: 1, line: 1, value: { name: 'A' } }])
  })

  it('is detected by content: several objects, one per line', async () => {
    const input = bulk(await read('people', '{"a":1}\n{"a":2}\n'))
    expect(input.format).toBe('ndjson')
    expect(input.rows.map((row) => row.value)).toEqual([{ a: 1 }, { a: 2 }])
  })

  it('is accepted in a file named .json', async () => {
    const input = bulk(await read('lines.json', '{"a":1}\n\n{"a":2}\n'))
    expect(input.format).toBe('ndjson')
    expect(input.rows).toEqual([
      { row: 1, line: 1, value: { a: 1 } },
      { row: 2, line: 3, value: { a: 2 } },
    ])
  })

  it('names the line and column of invalid JSON', async () => {
    const error = await inputError(read('bad.ndjson', '{"a":1}\n\n{"a":2,}\n{"a":3}\n'))
    expect(error.message).toBe(
      `${join(dir, 'bad.ndjson')}: line 3, column 8: trailing comma before '}'`,
    )
    expect(error.line).toBe(3)
    expect(error.row).toBe(2)
  })

  it('names the line of invalid JSON found by content detection', async () => {
    const error = await inputError(readRecordsInput('-', stdinOf('{"a":1}\n{"a":\n')))
    expect(error.message).toMatch(/^stdin: line 2, column 6: unexpected end of input/)
  })

  it('refuses a line that is not an object', async () => {
    const error = await inputError(read('array-line.ndjson', '{"a":1}\n[{"a":2}]\n'))
    expect(error.message).toBe(
      `${join(dir, 'array-line.ndjson')}: line 2: expected a JSON object, found an array`,
    )
  })
})

describe('CSV', () => {
  const people = [
    '\uFEFFname,email,phone,postal_code,note',
    '',
    '"Doe, Jane",jane@example.org,+49 030 123,03046,"She said ""hi"""',
    '',
    'Max,max@example.org,,01067,"line one',
    'line two"',
    '   ',
    ',,,,',
    'Eve,eve@example.org,  ,00000,',
    '',
  ]

  it('parses BOM, CRLF, quotes, embedded newlines, empty lines and empty cells', async () => {
    const input = bulk(await read('people.csv', people.join('\r\n')))
    expect(input.format).toBe('csv')
    expect(input.rows).toEqual([
      {
        row: 1,
        line: 3,
        value: {
          name: 'Doe, Jane',
          email: 'jane@example.org',
          phone: '+49 030 123',
          postal_code: '03046',
          note: 'She said "hi"',
        },
      },
      {
        row: 2,
        line: 5,
        value: {
          name: 'Max',
          email: 'max@example.org',
          postal_code: '01067',
          note: 'line one\nline two',
        },
      },
      // Whitespace is a value as written; only a completely empty cell is left out.
      {
        row: 3,
        line: 9,
        value: { name: 'Eve', email: 'eve@example.org', phone: '  ', postal_code: '00000' },
      },
    ])
  })

  it('gives the same rows for LF line endings', async () => {
    const crlf = bulk(await read('crlf.csv', people.join('\r\n')))
    const lf = bulk(await read('lf.csv', people.join('\n')))
    expect(lf.rows).toEqual(crlf.rows)
  })

  it('keeps every value a string', async () => {
    const input = bulk(await read('types.csv', 'a,b,c,d\n1,true,null,1e3\n'))
    expect(input.rows[0]?.value).toEqual({ a: '1', b: 'true', c: 'null', d: '1e3' })
  })

  it('leaves keys out of a row with fewer cells than the header', async () => {
    const input = bulk(await read('short.csv', 'name,email,phone\nA,a@example.org\nB\n'))
    expect(input.rows.map((row) => row.value)).toEqual([
      { name: 'A', email: 'a@example.org' },
      { name: 'B' },
    ])
  })

  it('keeps a quote inside an unquoted value as written', async () => {
    const input = bulk(await read('inches.csv', 'name,size\nScreen,27" wide\nMug, "tall"\n'))
    expect(input.rows.map((row) => row.value)).toEqual([
      { name: 'Screen', size: '27" wide' },
      { name: 'Mug', size: ' "tall"' },
    ])
  })

  it('trims header names but not values', async () => {
    const input = bulk(await read('spaced.csv', 'name , email\n A , b \n'))
    expect(input.rows[0]?.value).toEqual({ name: ' A ', email: ' b ' })
  })

  it('keeps a column named __proto__ as a plain key', async () => {
    const input = bulk(await read('proto.csv', 'name,__proto__\nA,x\n'))
    const value = input.rows[0]?.value as Record<string, unknown>
    expect(Object.keys(value)).toEqual(['name', '__proto__'])
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
  })

  it.each([
    ['semicolons', 'name;email;city\n"Doe; Jane";j@example.org;Köln\n'],
    ['tabs', 'name\temail\tcity\n"Doe; Jane"\tj@example.org\tKöln\n'],
  ])('reads a header separated by %s', async (_name, text) => {
    const input = bulk(await read('separated.csv', text))
    expect(input.rows[0]?.value).toEqual({
      name: 'Doe; Jane',
      email: 'j@example.org',
      city: 'Köln',
    })
  })

  it('is chosen by the .csv extension even when the content starts with [', async () => {
    const input = bulk(await read('brackets.csv', '[tag],note\n[1],x\n'))
    expect(input.format).toBe('csv')
    expect(input.rows[0]?.value).toEqual({ '[tag]': '[1]', note: 'x' })
  })

  it('is detected by content when the first character is not [ or {', async () => {
    const input = bulk(await readRecordsInput('-', stdinOf('name,email\nA,a@example.org\n')))
    expect(input.format).toBe('csv')
    expect(input.rows).toEqual([{ row: 1, line: 2, value: { name: 'A', email: 'a@example.org' } }])
  })

  it('decodes UTF-16 with a BOM (Excel "Unicode text")', async () => {
    const text = 'name,city\r\nJürgen,Köln\r\n'
    const littleEndian = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])
    const bigEndian = Buffer.from(littleEndian).swap16()
    for (const [name, bytes] of [
      ['le.csv', littleEndian],
      ['be.csv', bigEndian],
    ] as const) {
      const input = bulk(await read(name, bytes))
      expect(input.rows[0]?.value).toEqual({ name: 'Jürgen', city: 'Köln' })
    }
  })

  it('refuses a row with more cells than the header, naming row and line', async () => {
    const path = await file('ragged.csv', 'name,email,phone\n\nA,a@x.org,1\nB,b@x.org,2,extra\n')
    const error = await inputError(readRecordsInput(path, unusedStdin()))
    expect(error.message).toBe(
      `${path}: row 2 (line 4): 4 cells, but the header (line 1) has 3 columns`,
    )
    expect(error.row).toBe(2)
    expect(error.line).toBe(4)
  })

  it('refuses a duplicate header name', async () => {
    const path = await file('dup.csv', 'name,email,email\nA,a,b\n')
    const error = await inputError(readRecordsInput(path, unusedStdin()))
    expect(error.message).toBe(
      `${path}: header (line 1): column name "email" appears twice (columns 2 and 3)`,
    )
  })

  it('refuses an empty header name', async () => {
    const error = await inputError(read('nameless.csv', '\nname,,email\nA,b,c\n'))
    expect(error.message).toMatch(/: header \(line 2\): column 2 has no name$/)
  })

  it('names the row where a quote is never closed', async () => {
    const error = await inputError(
      read('unclosed.csv', 'name,note\nA,ok\n\nB,"never closed\nC,x\n'),
    )
    expect(error.message).toMatch(/: row 2 \(line 4\): a quoted value is never closed/)
    expect(error.line).toBe(4)
  })

  it('parses 10,000 rows', async () => {
    const lines = ['id,name,postal_code,note']
    for (let index = 1; index <= 10_000; index++) {
      const note = index === 5000 ? '"two\nlines"' : index % 2 === 0 ? '' : `"n, ${index}"`
      lines.push(`${index},Member ${index},${String(index).padStart(5, '0')},${note}`)
    }
    const input = bulk(await read('large.csv', lines.join('\r\n') + '\r\n'))
    expect(input.rows).toHaveLength(10_000)
    expect(input.rows[0]).toEqual({
      row: 1,
      line: 2,
      value: { id: '1', name: 'Member 1', postal_code: '00001', note: 'n, 1' },
    })
    expect(input.rows[4999]?.value.note).toBe('two\nlines')
    // Rows after the two-line record start one line later than their row number suggests.
    expect(input.rows[5000]).toMatchObject({ row: 5001, line: 5003 })
    expect(input.rows[9999]).toEqual({
      row: 10_000,
      line: 10_002,
      value: { id: '10000', name: 'Member 10000', postal_code: '10000' },
    })
    expect(input.rows.every((row, index) => row.row === index + 1)).toBe(true)
  })
})

describe('stdin', () => {
  it("reads '-' from the given stream, across chunks that split a character", async () => {
    const bytes = Buffer.from('[{"name": "Jürgen"}]')
    const split = bytes.indexOf(0xc3) + 1 // between the two bytes of ü
    const input = bulk(
      await readRecordsInput('-', stdinOf(bytes.subarray(0, split), bytes.subarray(split))),
    )
    expect(input.rows).toEqual([{ row: 1, value: { name: 'Jürgen' } }])
  })

  it('strips a BOM from stdin', async () => {
    const input = await readRecordsInput('-', stdinOf('\uFEFF{"a": 1}'))
    expect(input).toEqual({ kind: 'single', value: { a: 1 } })
  })

  it('names stdin in errors', async () => {
    const error = await inputError(readRecordsInput('-', stdinOf('')))
    expect(error.message).toBe('no records in stdin')
    expect(error.source).toBe('stdin')
  })
})

describe('input errors', () => {
  it('is a usage error (exit 2)', async () => {
    const error = await inputError(read('empty-for-class.json', ''))
    expect(error).toBeInstanceOf(UsageError)
    expect(error.exitCode).toBe(ExitCode.usage)
  })

  it('names a missing file and the reason in words', async () => {
    const path = join(dir, 'missing.csv')
    const error = await inputError(readRecordsInput(path, unusedStdin()))
    expect(error.message).toBe(`cannot read ${path}: no such file`)
  })

  it('names a directory given as a file', async () => {
    const path = join(dir, 'a-directory.json')
    await mkdir(path)
    const error = await inputError(readRecordsInput(path, unusedStdin()))
    expect(error.message).toBe(`cannot read ${path}: is a directory`)
  })

  it('names the line of a JSON document with a syntax error', async () => {
    const path = await file('broken.json', '[\n  {"a": 1},\n  {"a": 2}\n  {"a": 3}\n]\n')
    const error = await inputError(readRecordsInput(path, unusedStdin()))
    expect(error.message).toBe(`${path}: line 4, column 3: expected ',' or ']', found '{'`)
    expect(error.line).toBe(4)
  })

  it('refuses a JSON file that holds neither an object nor an array', async () => {
    const error = await inputError(read('scalar.json', '42\n'))
    expect(error.message).toMatch(/expected a JSON object or an array of objects, found a number$/)
  })

  it('names the line of bytes that are not UTF-8', async () => {
    const latin1 = Buffer.from('name,city\nA,Berlin\nB,K\xf6ln\n', 'latin1')
    const error = await inputError(read('latin1.csv', latin1))
    expect(error.message).toMatch(/latin1\.csv: line 3: not UTF-8 text/)
  })

  it.each([
    ['empty.json', ''],
    ['blank.csv', '\r\n   \n\t\n'],
    ['empty-array.json', '[ ]'],
    ['header-only.csv', 'name,email\r\n\r\n'],
    ['blank-lines.ndjson', '\n\n  \n'],
    ['only-separators.csv', 'name,email\n,\n'],
  ])('says there are no records in %s', async (name, content) => {
    const error = await inputError(read(name, content))
    expect(error.message).toBe(`no records in ${join(dir, name)}`)
  })

  it.each([
    ['list.json', '[{"a": 1}]', 'a JSON array'],
    ['list.csv', 'a\n1\n', 'CSV'],
    ['list.ndjson', '{"a": 1}\n', 'NDJSON (one object per line)'],
    ['list.txt', '{"a": 1}\n{"a": 2}\n', 'NDJSON (one object per line)'],
  ])('refuses bulk input in %s when bulk is not allowed', async (name, content, found) => {
    const error = await inputError(read(name, content, false))
    expect(error.message).toBe(`${join(dir, name)}: expected one JSON object, found ${found}`)
  })
})

describe('readJsonObject', () => {
  it('reads one object from a file and from stdin', async () => {
    const path = await file(
      'chamber.json',
      '\uFEFF{\r\n  "name": "IHK",\r\n  "type": "hq"\r\n}\r\n',
    )
    expect(await readJsonObject(path, unusedStdin())).toEqual({ name: 'IHK', type: 'hq' })
    expect(await readJsonObject('-', stdinOf('{"name": "IHK"}'))).toEqual({ name: 'IHK' })
  })

  it.each([
    ['[{"name": "IHK"}]', 'stdin: expected one JSON object, found an array'],
    ['"IHK"', 'stdin: expected one JSON object, found a string'],
    ['{"a": 1}\n{"a": 2}\n', 'stdin: expected one JSON object, found one object per line'],
    ['  \n', 'stdin is empty: expected one JSON object'],
    [
      '{\n  "name": \'IHK\'\n}',
      'stdin: line 2, column 11: strings need double quotes, not single quotes',
    ],
  ])('refuses %j', async (content, message) => {
    const error = await inputError(readJsonObject('-', stdinOf(content)))
    expect(error.message).toBe(message)
  })

  it('names a missing file', async () => {
    const path = join(dir, 'no-chamber.json')
    const error = await inputError(readJsonObject(path, unusedStdin()))
    expect(error.message).toBe(`cannot read ${path}: no such file`)
  })
})

describe('findJsonSyntaxError', () => {
  it('finds nothing wrong in valid JSON', () => {
    const text = '{"a": [1, -2.5e3, true, false, null, "\\u00fc\\n"], "b": {}, "c": []}'
    expect(() => JSON.parse(text)).not.toThrow()
    expect(findJsonSyntaxError(text)).toBeUndefined()
  })

  it.each([
    ['{"a": 1,\n "b": }', { line: 2, column: 7, reason: "unexpected '}', expected a value" }],
    ['[1, 2,]', { line: 1, column: 7, reason: "trailing comma before ']'" }],
    [
      '{a: 1}',
      { line: 1, column: 2, reason: "expected a property name in double quotes, found 'a'" },
    ],
    ['{"a" 1}', { line: 1, column: 6, reason: "expected ':' after the property name, found '1'" }],
    ['\n\n  "abc', { line: 3, column: 3, reason: 'string is never closed' }],
    [
      '["a\nb"]',
      { line: 1, column: 4, reason: 'line break inside a string (write it as an escape)' },
    ],
    ['["\\x"]', { line: 1, column: 3, reason: "invalid escape 'x' in a string" }],
    [
      '{"a": 1} {"b": 2}',
      { line: 1, column: 10, reason: "unexpected '{' after the end of the JSON value" },
    ],
    ['[-]', { line: 1, column: 2, reason: 'invalid number' }],
  ])('locates the error in %j', (text, problem) => {
    expect(() => JSON.parse(text)).toThrow()
    expect(findJsonSyntaxError(text)).toEqual(problem)
  })

  it('survives deep nesting', () => {
    const text = '['.repeat(100_000)
    expect(findJsonSyntaxError(text)).toEqual({
      line: 1,
      column: 100_001,
      reason: 'unexpected end of input, expected a value',
    })
  })
})

describe('lazy loading', () => {
  const STATIC_IMPORT = /^\s*import\s+(?!type\b)[^;]*?from\s+['"]([^'"]+)['"]/gm

  it.each(['records-input.ts', 'csv-records.ts', 'input-text.ts', 'json-syntax.ts'])(
    '%s has no static value import of csv-parse',
    async (name) => {
      const source = await readFile(new URL(`../../src/io/${name}`, import.meta.url), 'utf8')
      const imports = [...source.matchAll(STATIC_IMPORT)].map((match) => match[1])
      expect(imports.every((specifier) => !specifier?.startsWith('csv-parse'))).toBe(true)
    },
  )

  it('records-input.ts reaches the CSV module only through a dynamic import', async () => {
    const url = new URL('../../src/io/records-input.ts', import.meta.url)
    const source = await readFile(url, 'utf8')
    const imports = [...source.matchAll(STATIC_IMPORT)].map((match) => match[1])
    expect(imports).toContain('./input-text.js')
    expect(imports).not.toContain('./csv-records.js')
    expect(source).toContain("import('./csv-records.js')")
  })
})
