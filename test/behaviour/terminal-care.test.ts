// The small things a person at a terminal sees: progress never drawn while stdout is a pipe (its
// reader may draw on the same terminal), a bulk bar that fits 60 columns with its count, rate and
// ETA whole, failure reasons that lead with what the server said about the field, coloured JSON
// only on a terminal.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import stringWidth from 'string-width'
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it } from 'vitest'
import { BIG_CHAMBER, useSandbox, useTempDirs } from '../helpers/sandbox.js'
import { useCommands } from '../helpers/run-main.js'

const sandbox = useSandbox()
const { run } = useCommands(sandbox)
const tempDir = useTempDirs('chamberctl-care-')

// Every frame the bar drew: cli-progress starts and ends each with a cursor move or an erase.
const frames = (stderr: string) =>
  stderr
    // eslint-disable-next-line no-control-regex
    .split(/\u001b\[[0-9;?]*[A-Za-z]|\u001b[78]|[\r\n]/)
    .filter((line) => line.includes('/3 rows'))

let files = 0

// `count` rows of e-mails no other file of this test has; the second one `taken`, when given.
function rowsFile(count: number, taken?: string): string {
  files++
  const rows = Array.from({ length: count }, (_, i) => ({
    name: `Care ${i}`,
    email: i === 1 && taken ? taken : `care-${files}-${i}@example.com`,
    membership_type: 'standard',
  }))
  const file = path.join(tempDir(), 'rows.json')
  writeFileSync(file, JSON.stringify(rows))
  return file
}

describe('progress and the bulk bar', () => {
  // 3 rows at 50 columns are as tight as 2,000 rows at 60 (1,999/1,999 takes 8 cells more).
  it('draws the bar on a narrow terminal with the count, rate and ETA whole', async () => {
    const result = await run(['members', 'add', 'ch_0009', '--from-file', rowsFile(3)], {
      stdoutIsTTY: true,
      stderrIsTTY: true,
      stdoutWidth: 50,
    })
    expect(result.code, result.stderr).toBe(0)
    const drawn = frames(result.stderr)
    expect(drawn.length).toBeGreaterThan(0)
    for (const frame of drawn) {
      expect(stringWidth(frame), frame).toBeLessThanOrEqual(50)
      expect(frame).toMatch(/\d+\/3 rows \| [\d,]+\/s \| ETA \S+$/)
    }
  })

  it('draws no bar and no progress line while stdout is a pipe, even with stderr a terminal', async () => {
    const bulk = await run(['members', 'add', 'ch_0009', '--from-file', rowsFile(3)], {
      stderrIsTTY: true,
      stdoutIsPipe: true,
    })
    expect(bulk.code, bulk.stderr).toBe(0)
    expect(frames(bulk.stderr)).toEqual([])
    const list = await run(['members', 'list', BIG_CHAMBER, '--all'], {
      stderrIsTTY: true,
      stdoutIsPipe: true,
    })
    expect(list.code, list.stderr).toBe(0)
    expect(list.stderr).toBe('')
    // A file is not a pipe: the list's progress line is drawn there.
    const file = await run(['members', 'list', BIG_CHAMBER, '--all'], { stderrIsTTY: true })
    expect(file.stderr).toContain('fetched')
  })

  it('leads a failure reason with what the server said about the field', async () => {
    const taken = 'care-taken@example.com'
    await run([
      'members',
      'add',
      'ch_0008',
      '--name',
      'Taken',
      '--email',
      taken,
      '--membership-type',
      's',
    ])
    const result = await run(['members', 'add', 'ch_0008', '--from-file', rowsFile(2, taken)], {
      stdoutIsTTY: true,
      stderrIsTTY: true,
      stdoutWidth: 120,
    })
    expect(result.code).toBe(1)
    expect(stripVTControlCharacters(result.stdout)).toMatch(
      new RegExp(`^2 +failed +email: ${taken} is already a member of ch_0008 +${taken}$`, 'm'),
    )
  })
})

describe('JSON', () => {
  const ESC = '\u001b['
  it('is coloured on a terminal: keys, strings, numbers', async () => {
    const result = await run(['chambers', 'get', 'ch_0001', '--json'], {
      stdoutIsTTY: true,
      env: { FORCE_COLOR: '1' },
    })
    // Bold blue as node:util's styleText writes it: one code for each attribute.
    const key = (name: string) => `${ESC}1m${ESC}34m"${name}"${ESC}39m${ESC}22m`
    expect(result.stdout).toContain(`${key('id')}: ${ESC}32m"ch_0001"${ESC}39m`)
    expect(JSON.parse(stripVTControlCharacters(result.stdout))).toMatchObject({ id: 'ch_0001' })
    const list = await run(['members', 'list', BIG_CHAMBER, '--json', '--per-page', '2'], {
      stdoutIsTTY: true,
      env: { FORCE_COLOR: '1' },
    })
    expect(list.stdout).toContain(key('name'))
    expect(JSON.parse(stripVTControlCharacters(list.stdout))).toHaveLength(2)
  })

  it('is plain with NO_COLOR, and in a pipe even with FORCE_COLOR', async () => {
    const noColor = await run(['chambers', 'get', 'ch_0001', '--json'], {
      stdoutIsTTY: true,
      env: { NO_COLOR: '1' },
    })
    const piped = await run(['chambers', 'get', 'ch_0001', '--json'], { env: { FORCE_COLOR: '1' } })
    expect(noColor.stdout).not.toContain(ESC)
    expect(piped.stdout).not.toContain(ESC)
    expect(piped.stdout).toBe(`${JSON.stringify(JSON.parse(piped.stdout))}\n`)
  })
})

describe('lines that fit', () => {
  it('wraps an error to the terminal, the label coloured, the words all there', async () => {
    const result = await run(['members', 'add', 'ch_0009'], {
      stdoutIsTTY: true,
      stderrIsTTY: true,
      stdoutWidth: 40,
      env: { FORCE_COLOR: '1' },
    })
    expect(result.code).toBe(2)
    expect(result.stderr.startsWith('\u001b[31merror:\u001b[39m ')).toBe(true)
    const shown = stripVTControlCharacters(result.stderr).trimEnd().split('\n')
    expect(shown.length).toBeGreaterThan(1)
    for (const line of shown) expect(stringWidth(line), line).toBeLessThanOrEqual(40)
    expect(shown.join(' ')).toMatch(/--name.*--email.*--membership-type/)
  })
})
