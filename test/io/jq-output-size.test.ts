// jq-wasm hands back all one run of jq printed as one string: past V8's cap on a string (about
// 512 MiB) it throws Node's ERR_STRING_TOO_LONG. Printing that much takes a gigabyte and many
// seconds, so jq-wasm here is a stand-in that throws what it throws (the message and code of
// TextDecoder.decode past the cap, as jq-wasm calls it).
import { describe, expect, it, vi } from 'vitest'
import { compileJq } from '../../src/io/jq.js'
import { writeRecord } from '../../src/io/output.js'
import { createTestIO } from '../helpers/test-io.js'
import { outputOptions } from './fixtures.js'

vi.mock('jq-wasm', () => ({
  loadJq: () =>
    Promise.resolve({
      raw(input: string) {
        // The filter's compile check runs over no input.
        if (input === '') return { stdout: '', stderr: '', exitCode: 0 }
        throw Object.assign(new Error('Cannot create a string longer than 0x1fffffe8 characters'), {
          code: 'ERR_STRING_TOO_LONG',
        })
      },
    }),
}))

describe('--jq output past what one run hands back', () => {
  it('is one line of ours, exit 1', async () => {
    const jq = await compileJq('.[] | tostring')
    const t = createTestIO()
    const written = writeRecord(t.io, { id: 'c1' }, outputOptions({ format: 'json', jq }))
    await expect(written).rejects.toMatchObject({
      exitCode: 1,
      message: "--jq: jq's output is larger than 512 MiB, the most one run of jq hands back",
    })
    expect(t.stdout()).toBe('')
  })
})
