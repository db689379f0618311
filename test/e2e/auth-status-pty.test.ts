// `auth status` as a person at an 80-column terminal sees it: every value whole, every line
// within the width, whatever lengths the profiles hold.
import { describe, expect, it } from 'vitest'
import { loginArgs, useSandbox, useTempDirs } from '../helpers/sandbox.js'
import { patchProfile, patchToken } from '../helpers/config-files.js'
import { runMain } from '../helpers/run-main.js'
import { HAVE_PTY, startPty } from '../helpers/pty.js'

const sandbox = useSandbox()
const tempDir = useTempDirs('chamberctl-status-')

describe.skipIf(!HAVE_PTY)('auth status in an 80-column pseudo-terminal', () => {
  it('holds every value whole, on lines that fit', async () => {
    const dir = tempDir()
    const env = { CHAMBERCTL_CONFIG_DIR: dir }
    const stdin = `${sandbox().sandbox.credentials.clientSecret}\n`
    const name = 'staging.directory-of-chambers-of-commerce'
    expect((await runMain(loginArgs(sandbox()), { env, stdin })).code).toBe(0)
    expect((await runMain([...loginArgs(sandbox()), '--profile', name], { env, stdin })).code).toBe(
      0,
    )
    // Only the token is needed for the check, so the client id can be any length; the cached
    // token is the login's of that client id, or the profile would not use it.
    const clientId = `integration-${'x'.repeat(40)}-client`
    patchProfile(dir, { client_id: clientId }, name)
    patchToken(dir, { client_id: clientId }, name)

    const session = startPty(['auth', 'status'], {
      env: { TERM: 'xterm', HOME: dir, CHAMBERCTL_CONFIG_DIR: dir },
      columns: 80,
    })
    const { code, screen, shown: rendered } = await session.exited
    expect(code, screen).toBe(0)
    // The lines as the terminal shows them at the end: a spinner drawn while a check waited more
    // than a second (a loaded machine) is gone from there, as its frames were drawn over.
    const shown = rendered.split('\n')
    for (const line of shown) expect(line.length, line).toBeLessThanOrEqual(80)
    for (const value of [
      'default (active)',
      name,
      sandbox().v2,
      clientId,
      'in the config file (mode 0600)',
      `Checked profile default at ${sandbox().v2}: can authenticate`,
    ]) {
      expect(
        shown.some((line) => line.includes(value)),
        value,
      ).toBe(true)
    }
    // Minutes left as the clock says when the status runs (60 within 30 s of the logins).
    expect(
      shown.filter((line) => /^ {2}Token: +valid until \S+Z \(in \d+ min\)$/.test(line)),
    ).toHaveLength(2)
  })
})
