// A 422's field table is aligned by the width the field names take in a terminal, which for wide
// characters is not their length: string-width, loaded only for such a table.
import { afterEach, describe, expect, it } from 'vitest'
import { runMain } from '../helpers/run-main.js'
import { useTempDirs } from '../helpers/sandbox.js'
import { lines } from '../helpers/output.js'
import { startFakeApi } from '../helpers/fake-api.js'
import type { FakeApi } from '../helpers/fake-api.js'

const tempDir = useTempDirs('chamberctl-fields-')
let listener: FakeApi | undefined
afterEach(async () => {
  await listener?.close()
  listener = undefined
})

describe('the field table of a 422', () => {
  it('lines up messages after field names of wide characters', async () => {
    listener = await startFakeApi({
      answer: () => ({
        status: 422,
        body: {
          error: 'validation_failed',
          fields: { 名前: ['は必須です'], 'address.city': ['is too long'] },
        },
      }),
    })
    const { code, stderr } = await runMain(
      ['chambers', 'create', '--name', 'X', '--type', 'hq', '--address-field', 'city=Kiel'],
      {
        env: {
          CHAMBERCTL_CONFIG_DIR: tempDir(),
          CHAMBERCTL_BASE_URL: listener.baseUrl(),
          CHAMBERCTL_TOKEN: 'test-token',
        },
      },
    )
    expect(code).toBe(2)
    // 名前 is two characters but four cells: eight spaces pad it to the twelve of address.city.
    expect(lines(stderr).slice(1)).toEqual([
      '  名前          は必須です',
      '  address.city  is too long',
    ])
  })
})
