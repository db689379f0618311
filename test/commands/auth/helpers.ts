// What the tests of the auth verbs share: one sandbox for the file, useCommands' runners (with
// `login`), the sandbox's client credentials, and a check that a token opens the API.
import { useCommands } from '../../helpers/run-main.js'
import { useSandbox } from '../../helpers/sandbox.js'
import type { SandboxFixture } from '../../helpers/sandbox.js'

export const POSIX = process.platform !== 'win32'

export function useAuthSandbox() {
  const sandbox = useSandbox()
  return {
    sandbox,
    ...useCommands(sandbox),
    secret: () => sandbox().sandbox.credentials.clientSecret,
    clientId: () => sandbox().sandbox.credentials.clientId,
  }
}

// The status a list request with this bearer token gets.
export async function tokenWorks(fixture: SandboxFixture, token: string): Promise<number> {
  const response = await fetch(`${fixture.v2}/chambers`, {
    headers: { authorization: `Bearer ${token}` },
  })
  await response.arrayBuffer()
  return response.status
}
