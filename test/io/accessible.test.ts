// Accessible mode's forms of what otherwise draws on a terminal: tables as blocks of `key: value`
// lines (a blank line between records, nothing cut, nothing left out), a record's included lists
// the same way, and progress as occasional plain lines, on a clock the test moves.
import { describe, expect, it } from 'vitest'
import { writeBatches, writeRecord } from '../../src/io/output.js'
import { startBulkProgress } from '../../src/io/bulk-output.js'
import { PLAIN_EVERY_MS, startProgress } from '../../src/io/progress.js'
import { createTestIO } from '../helpers/test-io.js'
import { ANSI, chambers, columns, outputOptions } from './fixtures.js'

function accessibleTerminal(width = 40) {
  const test = createTestIO({ stdoutIsTTY: true, stderrIsTTY: true, stdoutWidth: width })
  test.io.accessible = true
  return test
}

async function* pages<T>(...batches: T[][]): AsyncGenerator<T[]> {
  yield* batches
}

describe('tables in accessible mode', () => {
  it('are key: value blocks, a blank line between records, even across pages', async () => {
    const test = accessibleTerminal()
    const [berlin, potsdam] = chambers()
    const count = await writeBatches(
      test.io,
      pages([berlin!], [{ ...potsdam!, name: 'A name far longer than this terminal is wide' }]),
      outputOptions({
        format: 'table',
        color: true,
        columns: ['id', 'name', 'status', 'address.city', 'created_at'],
      }),
    )
    expect(count).toBe(2)
    expect(test.stdout()).toBe(
      [
        'id: c1',
        'name: Berlin Chamber of Commerce',
        'status: active',
        'address.city: Berlin',
        'created_at: 2024-01-02T03:04:05Z',
        '',
        'id: c2',
        // Nothing cut at the terminal's 40 columns, no column left out.
        'name: A name far longer than this terminal is wide',
        'status: pending',
        'address.city: Potsdam',
        'created_at: 2024-02-03T04:05:06Z',
        '',
      ].join('\n'),
    )
    expect(test.stdout()).not.toMatch(ANSI)
    // No note about columns left out: none were.
    expect(test.stderr()).toBe('')
  })

  it('show a date-time to the second, an empty value without a trailing space, text escaped', async () => {
    const test = accessibleTerminal()
    await writeBatches(
      test.io,
      pages([
        {
          id: 'c3',
          name: 'Bad\u001b[31mName',
          status: null,
          created_at: '2024-01-02T03:04:05.123456Z',
        },
      ]),
      outputOptions({ format: 'table', columns: ['id', 'name', 'status', 'created_at'] }),
    )
    expect(test.stdout()).toBe(
      'id: c3\nname: Bad\\x1b[31mName\nstatus:\ncreated_at: 2024-01-02T03:04:05Z\n',
    )
  })

  it('a record’s included lists are blocks under their heading', async () => {
    const test = accessibleTerminal()
    await writeRecord(
      test.io,
      {
        id: 'c1',
        name: 'Berlin',
        members: [
          { id: 'm1', name: 'Ada' },
          { id: 'm2', name: 'Bo' },
        ],
      },
      {
        ...outputOptions({ format: 'table', columns: ['id', 'name'] }),
        sections: { members: columns(['id', 'name']) },
      },
    )
    expect(test.stdout()).toMatch(/\nMembers \(2\)\nid: m1\nname: Ada\n\nid: m2\nname: Bo\n$/)
  })
})

describe('progress in accessible mode', () => {
  it('a list’s progress is a plain line every few seconds, none redrawn in place', () => {
    const test = accessibleTerminal()
    let now = 0
    const progress = startProgress(test.io, { quiet: false }, () => now)!
    progress.update('fetched 20 of 100 chambers')
    now += PLAIN_EVERY_MS - 1
    progress.update('fetched 40 of 100 chambers')
    now += 1
    progress.update('fetched 60 of 100 chambers')
    progress.stop()
    now += PLAIN_EVERY_MS
    progress.update('fetched 80 of 100 chambers')
    expect(test.stderr()).toBe('fetched 60 of 100 chambers\nfetched 80 of 100 chambers\n')
  })

  it('a bulk run’s bar is a plain count now and then, and a wait said once as it begins', async () => {
    const test = accessibleTerminal()
    let now = 0
    const progress = (await startBulkProgress(
      test.io,
      { quiet: false },
      1000,
      'rows sent',
      () => now,
    ))!
    for (let row = 1; row <= 1000; row++) {
      if (row === 200) now += PLAIN_EVERY_MS
      if (row === 300) {
        progress.waiting(2000)
        progress.waiting(1000)
        progress.waiting(undefined)
      }
      progress.tick()
    }
    progress.stop()
    expect(test.stderr()).toBe(
      '200 of 1,000 rows sent\nwaiting 2 s: the server asked to slow down\n',
    )
  })

  it('nothing with -q, nor when stdout is a pipe', async () => {
    const test = accessibleTerminal()
    expect(startProgress(test.io, { quiet: true })).toBeUndefined()
    expect(await startBulkProgress(test.io, { quiet: true }, 10, 'rows sent')).toBeUndefined()
    test.io.stdoutIsPipe = true
    expect(startProgress(test.io, { quiet: false })).toBeUndefined()
  })
})
