// Files that are not what they claim are refused with exit 2, naming the file and the problem,
// before anything is sent: YAML alias bombs, documents nested past any record's depth, binary
// files, and anything over the input size limit.
import { truncateSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { MAX_INPUT_BYTES } from '../../src/io/input-text.js'
import { MAX_DEPTH } from '../../src/io/nesting.js'
import { useCommands } from '../helpers/run-main.js'
import { useSandbox, useTempDirs } from '../helpers/sandbox.js'
import { inputArgs, writeVerbs } from '../helpers/writes.js'

const sandbox = useSandbox()
const { run } = useCommands(sandbox)
const tempDir = useTempDirs('chamberctl-limits-')

beforeEach(() => sandbox().reset())

function write(name: string, content: string | Buffer): string {
  const file = path.join(tempDir(), name)
  writeFileSync(file, content)
  return file
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`
const member = (extra = '') =>
  `{"name":"Ada","email":"ada@example.com","membership_type":"standard"${extra}}`
const chamber = (address: string) =>
  `{"chambers":[{"key":"a","name":"A","type":"hq","address":${address}}]}`

// Ten anchors, each a list of nine of the one before: a billion leaves from a few hundred bytes.
const ALIAS_BOMB = [
  'a: &a [x, x, x, x, x, x, x, x, x]',
  ...'bcdefghij'.split('').map((name, i) => {
    const previous = String.fromCharCode(97 + i)
    return `${name}: &${name} [${Array(9).fill(`*${previous}`).join(', ')}]`
  }),
  'chambers: []',
].join('\n')

async function expectRefused(args: string[], message: RegExp) {
  const { code, stdout, stderr } = await run(args)
  expect(code, stderr).toBe(2)
  expect(stdout).toBe('')
  expect(stderr.trimEnd()).toMatch(message)
  expect(stderr.split('\n').filter(Boolean)).toHaveLength(1)
  expect(sandbox().requests).toEqual([])
}

describe('bombs', () => {
  it('seed: a YAML alias bomb', async () => {
    const file = write('bomb.yaml', ALIAS_BOMB)
    await expectRefused(['seed', file], /^error: \S+bomb\.yaml: too many YAML aliases expanded/)
  })

  it('seed: JSON nested 100,000 deep inside an address', async () => {
    const file = write('deep.json', chamber(`{"notes":${nested(100_000)}}`))
    await expectRefused(['seed', file], /^error: \S+deep\.json: nested more than 64 levels deep$/)
  })

  it('seed: YAML nested past the limit', async () => {
    const file = write('deep.yaml', `chambers: ${nested(MAX_DEPTH + 1)}\n`)
    await expectRefused(['seed', file], /deep\.yaml: nested more than 64 levels deep$/)
  })

  it('members add: a JSON array with a deeply nested field', async () => {
    const file = write('deep.json', `[${member(`,"x":${nested(100_000)}`)}]`)
    await expectRefused(
      ['members', 'add', 'ch_0001', '--from-file', file],
      /deep\.json: nested more than 64 levels deep$/,
    )
  })

  it('members add: an NDJSON line nested too deep, by its line', async () => {
    const file = write('deep.ndjson', `${member()}\n${member(`,"x":${nested(200)}`)}\n`)
    await expectRefused(
      ['members', 'add', 'ch_0001', '--from-file', file],
      /deep\.ndjson: line 2: nested more than 64 levels deep$/,
    )
  })

  it('chambers create: a file nested too deep', async () => {
    const file = write('deep.json', `{"name":"A","type":"hq","address":${nested(1000)}}`)
    await expectRefused(['chambers', 'create', '--from-file', file], /deep\.json: nested more/)
  })

  it('takes nesting up to the limit', async () => {
    const file = write('ok.json', `[${member(`,"x":${nested(MAX_DEPTH - 2)}`)}]`)
    const { code, stderr } = await run([
      'members',
      'add',
      'ch_0001',
      '--from-file',
      file,
      '--dry-run',
    ])
    expect(code, stderr).toBe(0)
  })
})

describe('binary files', () => {
  it('members add: UTF-16 without a BOM (NUL bytes in valid UTF-8)', async () => {
    const csv = Buffer.from('name,email,membership_type\nAda,ada@example.com,standard\n', 'utf16le')
    const file = write('members.csv', csv)
    await expectRefused(
      ['members', 'add', 'ch_0001', '--from-file', file],
      /^error: \S+members\.csv: line 1: a NUL byte: this is a binary file, not text \(or UTF-16 without a BOM\)$/,
    )
  })

  it('seed: an image', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])
    await expectRefused(['seed', write('logo.yaml', png)], /logo\.yaml: line 1: not UTF-8 text/)
  })

  it('api --input: a binary body', async () => {
    const file = write('body.bin', Buffer.from([0x7b, 0x00, 0x7d]))
    await expectRefused(['api', '/chambers', '--input', file], /body\.bin: line 1: a NUL byte/)
  })
})

describe('size', () => {
  // A sparse file: 64 MiB and one byte of zeros that take no disk space.
  const huge = (name: string) => {
    const file = write(name, '')
    truncateSync(file, MAX_INPUT_BYTES + 1)
    return file
  }

  // Every write verb of the command tree.
  it.each(writeVerbs())('$name: a file over 64 MiB', async (verb) => {
    const file = huge('big.json')
    await expectRefused(
      inputArgs(verb, file),
      /big\.json is larger than 64 MiB, the most chamberctl reads from one input$/,
    )
  })

  it('stdin over 64 MiB', async () => {
    const { code, stderr } = await run(['seed', '-'], { stdin: ' '.repeat(MAX_INPUT_BYTES + 1) })
    expect(code).toBe(2)
    expect(stderr).toBe(
      'error: stdin is larger than 64 MiB, the most chamberctl reads from one input\n',
    )
  })
})
