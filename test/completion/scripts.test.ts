// The shipped scripts: each is what `chamberctl completion <shell>` prints now (so a command or
// flag added without `npm run build` fails here), and each loads in its shell.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { useTempDirs } from '../helpers/sandbox.js'
import { ROOT, runCli } from '../helpers/run-cli.js'
import { COMPLETION_FILES, hasShell, scriptPath } from './helpers.js'

const tempDir = useTempDirs('chamberctl-completion-')
const run = promisify(execFile)
const { version: VERSION } = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as {
  version: string
}
const SHELLS = Object.keys(COMPLETION_FILES) as (keyof typeof COMPLETION_FILES)[]

describe('completions/ is up to date', () => {
  it.each(SHELLS)(
    '%s: the committed script is what `chamberctl completion` prints now',
    async (shell) => {
      const { code, stdout, stderr } = await runCli(['completion', shell], { configDir: tempDir() })
      expect(code, stderr).toBe(0)
      const committed = readFileSync(scriptPath(shell), 'utf8')
      expect(
        committed === stdout,
        `completions/${COMPLETION_FILES[shell]} is stale: run \`npm run build\` and commit it`,
      ).toBe(true)
    },
  )

  it('the scripts name no path, date or version of the machine that built them', () => {
    for (const shell of SHELLS) {
      const text = readFileSync(scriptPath(shell), 'utf8')
      expect(text).not.toContain(ROOT)
      expect(text).not.toContain(process.execPath)
      expect(text).not.toContain(VERSION)
      expect(text).not.toMatch(/\b20\d\d-\d\d-\d\d\b/)
    }
  })
})

describe('each script loads in its shell', () => {
  it('bash: `complete -p chamberctl` names the function', async () => {
    const { stdout } = await run('bash', [
      '--norc',
      '--noprofile',
      '-c',
      'source "$1" && complete -p chamberctl',
      'bash',
      scriptPath('bash'),
    ])
    expect(stdout.trim()).toBe('complete -F _chamberctl chamberctl')
  })

  it.skipIf(!hasShell('zsh'))(
    'zsh: sourced after compinit, it is registered for chamberctl',
    async () => {
      const { stdout, stderr } = await run('zsh', [
        '-f',
        '-c',
        'autoload -U compinit && compinit -u -D && source "$1" && print -r -- $_comps[chamberctl]',
        'zsh',
        scriptPath('zsh'),
      ])
      expect(stderr).toBe('')
      expect(stdout.trim()).toBe('_chamberctl')
    },
  )

  it.skipIf(!hasShell('fish'))('fish: sourced, it completes `chamberctl ch`', async () => {
    const { stdout, stderr } = await run('fish', [
      '--no-config',
      '-c',
      'source $argv[1]; and complete -C"chamberctl ch"',
      scriptPath('fish'),
    ])
    expect(stderr).toBe('')
    expect(stdout).toBe('chambers\tlist, show and create chambers\n')
  })
})
