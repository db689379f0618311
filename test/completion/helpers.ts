// Running the completion scripts in their shells: a `chamberctl` on PATH that is the built CLI
// run by this Node, bash's completion variables set by hand, zsh driven through a pseudo-terminal,
// fish's own `complete -C`.
import { execFile, execFileSync } from 'node:child_process'
import { chmodSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect } from 'vitest'
import { BIN, ROOT } from '../helpers/run-cli.js'
import { runMain } from '../helpers/run-main.js'
// @ts-expect-error: a plain ESM script without type declarations
import { COMPLETION_FILES as FILES } from '../../scripts/build.mjs'

export const COMPLETION_FILES = FILES as Record<'bash' | 'zsh' | 'fish' | 'powershell', string>

export function scriptPath(shell: keyof typeof COMPLETION_FILES): string {
  return path.join(ROOT, 'completions', COMPLETION_FILES[shell])
}

export function hasShell(name: string): boolean {
  try {
    execFileSync(name, ['-c', 'exit 0'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

// A directory holding `chamberctl`: a wrapper that runs the built CLI with process.execPath, so
// that the scripts' `command chamberctl` finds it first on PATH.
export function wrapperDir(dir: string): string {
  const file = path.join(dir, 'chamberctl')
  writeFileSync(file, `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(BIN)} "$@"\n`)
  chmodSync(file, 0o755)
  return dir
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

export type ShellRun = { env?: NodeJS.ProcessEnv; pathDir?: string }

function shellEnv(run: ShellRun): NodeJS.ProcessEnv {
  const PATH = [run.pathDir, process.env.PATH].filter(Boolean).join(path.delimiter)
  // Nothing of the developer's chamberctl settings, and no rc files (--norc, -f, --no-config).
  return { PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', ...run.env }
}

// Sources the bash script, sets COMP_WORDS / COMP_CWORD / COMP_LINE / COMP_POINT for `line` with
// the cursor at its end, calls the function `complete -p` names, and returns COMPREPLY. `words`
// overrides the split of the line (bash also splits at COMP_WORDBREAKS: = and :).
const BASH_DRIVER = `
source "$1"
spec=$(complete -p chamberctl) || exit 3
fn=\${spec##*-F }
fn=\${fn%% *}
COMP_LINE=$2
COMP_POINT=\${#COMP_LINE}
shift 2
if (($#)); then
  COMP_WORDS=("$@")
else
  read -ra COMP_WORDS <<<"$COMP_LINE"
  [[ $COMP_LINE == *' ' ]] && COMP_WORDS+=('')
fi
COMP_CWORD=$((\${#COMP_WORDS[@]} - 1))
"$fn" chamberctl "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\\n' "\${COMPREPLY[@]}"
`

export async function bashComplete(
  line: string,
  run: ShellRun & { script?: string; words?: string[] } = {},
): Promise<string[]> {
  const script = run.script ?? scriptPath('bash')
  const args = ['--norc', '--noprofile', '-c', BASH_DRIVER, 'bash', script, line]
  const { stdout } = await promisify(execFile)('bash', [...args, ...(run.words ?? [])], {
    env: shellEnv(run),
  })
  return stdout.split('\n').filter((word) => word !== '')
}

// fish's own completion of `line`: one `value<TAB>description` per candidate.
export async function fishComplete(line: string, run: ShellRun = {}): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    'fish',
    ['--no-config', '-c', 'source $argv[1]; complete -C$argv[2]', scriptPath('fish'), line],
    { env: shellEnv(run) },
  )
  return stdout.split('\n').filter((entry) => entry !== '')
}

const ZSH_DRIVER = fileURLToPath(new URL('./zsh-capture.zsh', import.meta.url))

// zsh completes only in an interactive shell: the driver runs one in a pseudo-terminal with the
// completions directory on $fpath (the script is autoloaded, as installed), types `line` and TAB,
// and prints each candidate that the completion system adds.
export async function zshComplete(line: string, run: ShellRun = {}): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    'zsh',
    ['-f', ZSH_DRIVER, path.join(ROOT, 'completions'), line],
    { env: shellEnv(run), timeout: 15_000 },
  )
  return stdout
    .replace(/\r/g, '')
    .split('\n')
    .filter((entry) => entry.startsWith('<') && entry.endsWith('>'))
    .map((entry) => entry.slice(1, -1))
}

// Lists the chambers that `args` (before `__complete chamber-ids`) and `env` name, in this process
// on a budget that never runs out, into the completion cache of env's config directory: the
// built CLI a shell then runs there answers from it without asking the server. Asked over the
// network instead, it has completion's one second of the real clock for a token and a listing,
// which a loaded machine may not give it. The lookup itself: chamber-ids.test.ts.
export async function cacheChamberIds(env: NodeJS.ProcessEnv, args: string[] = []): Promise<void> {
  const { code, stdout } = await runMain([...args, '__complete', 'chamber-ids'], { env })
  expect(code).toBe(0)
  expect(stdout).toMatch(/^ch_0001\t/)
}
