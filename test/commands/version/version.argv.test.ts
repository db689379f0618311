// version: argv → what it prints. The command has no module of its own to mock: its action
// writes the version line (the same as --version, answered before the CLI loads).
import { describe, expect, it } from 'vitest'
import { VERSION } from '../../../src/cmdutil/version.js'
import { runMain } from '../../helpers/run-main.js'

describe('version: argv', () => {
  it('prints the version line and nothing else', async () => {
    expect(await runMain(['version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' })
  })

  it.each([
    [['version', 'x'], 'too many arguments'],
    [['version', '--jq', '.'], '--jq filters JSON output; chamberctl version prints none'],
  ])('%j is refused with exit 2', async (args, named) => {
    const { code, stdout, stderr } = await runMain(args)
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' })
    expect(stderr).toContain(named)
  })
})
