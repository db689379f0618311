// login: argv → options, the flag rules included (the verb is mocked, its toOptions is not; its
// behaviour is in login.test.ts). The secret has no flag: it comes from stdin or a prompt, never
// from argv.
import { describe, expect, it, vi } from 'vitest'
import { login } from '../../../src/commands/auth/login.js'
import { argvCases, refused } from '../../helpers/argv.js'

vi.mock('../../../src/commands/auth/login.js', async (real) => ({
  ...(await real<object>()),
  login: vi.fn(),
}))

describe('login: argv → options', () => {
  argvCases(vi.mocked(login), {
    parses: [
      [['login'], { storeSecret: true }],
      [
        ['login', '--client-id', 'ci', '--client-secret-stdin', '--insecure-storage'],
        { clientId: 'ci', clientSecretStdin: true, insecureStorage: true, storeSecret: true },
      ],
      [['login', '--no-store-secret'], { storeSecret: false }],
    ],
    refuses: [[['login', '--sandbox'], '--sandbox needs no login']],
  })

  it('has no flag that takes the secret', async () => {
    expect(await refused(vi.mocked(login), ['login', '--client-secret', 's3cret'])).toContain(
      "unknown option '--client-secret'",
    )
  })
})
