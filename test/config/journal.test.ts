import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { Journal } from '../../src/config/journal.js'
import { useTempDirs } from './helpers.js'

const tempDir = useTempDirs()
const KEY = {
  kind: 'members add',
  target: 'chamber ch_1 at http://api.test/v2',
  content: [1, 2, 3],
}

const lines = (journal: Journal) =>
  readFileSync(journal.path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown)

describe('Journal', () => {
  it('has an item in the file as sending before its request may leave, and every outcome once closed', async () => {
    const dir = tempDir()
    const journal = await Journal.open(dir, KEY, false)
    journal.sending('1')
    expect(lines(journal)).toEqual([{ item: '1', status: 'sending' }])
    journal.settle('1', 'created', 'mb_1')
    journal.sending('2')
    expect(lines(journal)).toEqual([
      { item: '1', status: 'sending' },
      { item: '1', status: 'created', id: 'mb_1' },
      { item: '2', status: 'sending' },
    ])
    journal.settle('2', 'failed')
    journal.sending('3')
    journal.settle('3', 'unknown')
    journal.close(false)

    const resumed = await Journal.open(dir, KEY, true)
    expect(Object.fromEntries(resumed.earlier)).toEqual({
      '1': { status: 'created', id: 'mb_1' },
      '2': { status: 'failed' },
      '3': { status: 'unknown' },
    })
    resumed.close(true)
  })
})
