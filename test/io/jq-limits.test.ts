// --jq within jq-wasm's memory: the merged array of a list is bounded, and a run of jq that runs
// out of memory (or fails inside its WebAssembly build) ends in one line of ours, with nothing
// of jq-wasm's own on stderr.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CliError } from '../../src/errors.js'
import { compileJq } from '../../src/io/jq.js'
import { MAX_JQ_DOCUMENT } from '../../src/io/jq-output.js'
import { batchesOf, writeBatches, writeRecord } from '../../src/io/output.js'
import { createTestIO } from '../helpers/test-io.js'
import { outputOptions } from './fixtures.js'

// A member as `report members` prints it (about 290 bytes of JSON).
const MEMBER = {
  chamber_id: 'ch_0001',
  chamber_name: 'Berlin Chamber of Commerce',
  chamber_city: 'Berlin',
  id: 'mb_000001',
  name: 'Ada Lovelace',
  email: 'ada.lovelace@berlin.example.com',
  phone: '+49 30 1007919',
  membership_type: 'premium',
  status: 'active',
  joined_at: '2024-01-15T09:00:00.000Z',
}
const MEMBER_BYTES = JSON.stringify(MEMBER).length
const PAGE = 1000

// Pages of members, a few more than MAX_JQ_DOCUMENT holds, counting the records asked for and
// whether the walk was ended (as a list's pagination is when its reader stops).
function pastTheBound() {
  const seen = { records: 0, ended: false }
  const pages = Math.ceil(MAX_JQ_DOCUMENT / MEMBER_BYTES / PAGE) + 2
  async function* walk() {
    try {
      for (let page = 0; page < pages; page++) {
        seen.records += PAGE
        yield Array.from({ length: PAGE }, () => MEMBER)
      }
    } finally {
      seen.ended = true
    }
  }
  return { seen, walk }
}

// A string larger than jq's 256 MiB, built in milliseconds; of the input's length, so that jq
// builds it when it runs, not when it compiles the filter.
const OUT_OF_MEMORY = '"x" * (300000000 + length)'
// A value nested deeper than jq's stack takes when it prints it.
const STACK_OVERFLOW = 'reduce range(100000) as $i (null; [.])'

describe('--jq within jq-wasm`s memory', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('stops gathering a list past MAX_JQ_DOCUMENT, with one line naming it and the way out', async () => {
    const t = createTestIO()
    const jq = await compileJq('.[] | select(.membership_type == "premium") | .email')
    const { seen, walk } = pastTheBound()
    const written = writeBatches(t.io, walk(), outputOptions({ format: 'json', jq }))
    await expect(written).rejects.toThrow(CliError)
    await expect(written).rejects.toMatchObject({
      exitCode: 1,
      code: 'too_large',
      message:
        '--jq: the list is larger than 24 MiB of JSON, the most handed to jq as one array; filter it record by record with -o ndjson --jq, or narrow it with --limit or filters',
    })
    // Not one page past the bound was asked for, and the walk was ended.
    expect(seen.records).toBeLessThanOrEqual(MAX_JQ_DOCUMENT / MEMBER_BYTES + PAGE)
    expect(seen.ended).toBe(true)
    expect(t.stdout()).toBe('')
  })

  it('says jq ran out of memory in one line, the way out for a list, and silences jq-wasm', async () => {
    const printed = vi.spyOn(console, 'error')
    const jq = await compileJq(OUT_OF_MEMORY)
    const t = createTestIO()
    const list = writeBatches(t.io, batchesOf([MEMBER]), outputOptions({ format: 'json', jq }))
    await expect(list).rejects.toMatchObject({
      exitCode: 1,
      code: 'jq_out_of_memory',
      message:
        "--jq: jq ran out of memory (jq's WebAssembly build has 256 MiB); filter it record by record with -o ndjson --jq, or narrow it with --limit or filters",
    })

    // Record by record, or over one record, there is no smaller input to offer.
    const each = writeBatches(t.io, batchesOf([MEMBER]), outputOptions({ format: 'ndjson', jq }))
    await expect(each).rejects.toMatchObject({
      message: "--jq: jq ran out of memory (jq's WebAssembly build has 256 MiB)",
    })
    const one = writeRecord(t.io, MEMBER, outputOptions({ format: 'json', jq }))
    await expect(one).rejects.toMatchObject({
      message: "--jq: jq ran out of memory (jq's WebAssembly build has 256 MiB)",
    })
    expect(printed).not.toHaveBeenCalled()
    expect(t.stdout()).toBe('')
    expect(t.stderr()).toBe('')
  })

  it('says what failed inside jq`s WebAssembly build, without emscripten`s advice', async () => {
    const printed = vi.spyOn(console, 'error')
    const jq = await compileJq(STACK_OVERFLOW)
    const t = createTestIO()
    const one = writeRecord(t.io, MEMBER, outputOptions({ format: 'json', jq }))
    await expect(one).rejects.toMatchObject({
      exitCode: 1,
      message: '--jq: jq failed inside its WebAssembly build: memory access out of bounds',
    })
    expect(printed).not.toHaveBeenCalled()
  })

  it('leaves console.error as it was, and jq usable, after a run that aborted', async () => {
    // eslint-disable-next-line no-console -- what jq-wasm prints with
    const before = console.error
    const jq = await compileJq(`if .huge then ${OUT_OF_MEMORY} else .id end`)
    const t = createTestIO()
    const huge = writeRecord(t.io, { huge: true }, outputOptions({ format: 'json', jq }))
    await expect(huge).rejects.toThrow('ran out of memory')
    // eslint-disable-next-line no-console -- put back as it was
    expect(console.error).toBe(before)
    await writeRecord(t.io, MEMBER, outputOptions({ format: 'json', jq }))
    expect(t.stdout()).toBe('mb_000001\n')
  })
})
