// The generator, in this process: the scripts follow the commander tree they are given (a command
// added to it is completed without touching the generator), hidden commands stay out, and the
// wiring loads none of the generator until `completion` runs.
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { Option } from 'commander'
import { describe, expect, it } from 'vitest'
import { createContext } from '../../src/cli/main.js'
import { createProgram } from '../../src/cli/program.js'
import { completionScript } from '../../src/commands/completion/generate.js'
import { describeProgram, walk } from '../../src/commands/completion/model.js'
import { SHELLS } from '../../src/commands/completion/shells.js'
import { OUTPUT_FORMATS } from '../../src/io/format.js'
import { runMain } from '../helpers/run-main.js'
import { useTempDirs } from '../helpers/sandbox.js'
import { createTestIO } from '../helpers/test-io.js'
import { bashComplete } from './helpers.js'

const tempDir = useTempDirs('chamberctl-generate-')

function program() {
  return createProgram(createContext(createTestIO().io))
}

describe('the model of the command tree', () => {
  it('has every visible command, and neither __complete nor the nested help commands', () => {
    const paths = [...walk(describeProgram(program()))].map((command) => command.path.join(' '))
    expect(paths).toEqual(
      expect.arrayContaining(['', 'chambers', 'chambers list', 'members add', 'completion']),
    )
    expect(paths).toContain('help')
    expect(paths.filter((p) => p.includes('__complete') || p.endsWith(' help'))).toEqual([])
  })

  it('completes -o from the formats that -o accepts', () => {
    const output = describeProgram(program()).options.find((o) => o.long === '--output')
    expect(output?.value?.complete).toEqual({ kind: 'choices', values: OUTPUT_FORMATS })
  })

  it('is the same on every run', () => {
    for (const shell of SHELLS) {
      expect(completionScript(shell, program())).toBe(completionScript(shell, program()))
    }
  })
})

describe('scripts generated from the tree', () => {
  it('complete a command, its choices and its file option as soon as they are declared', async () => {
    const tree = program()
    tree
      .command('brew')
      .description('a command the generator has never heard of')
      .addOption(new Option('--flavour <flavour>', 'taste').choices(['sweet', 'sour']))
      .option('--recipe <file>', 'a recipe file')
    tree.command('secret', { hidden: true }).description('not for completion')
    const script = path.join(tempDir(), 'chamberctl.bash')
    await writeFile(script, completionScript('bash', tree))

    expect(await bashComplete('chamberctl b', { script })).toEqual(['brew'])
    expect(await bashComplete('chamberctl brew --flavour ', { script })).toEqual(['sweet', 'sour'])
    expect(await bashComplete('chamberctl s', { script })).toEqual(['seed', 'sandbox'])
    const dir = tempDir()
    await writeFile(path.join(dir, 'tea.txt'), '')
    expect(await bashComplete(`chamberctl brew --recipe ${dir}/t`, { script })).toEqual([
      `${dir}/tea.txt`,
    ])
  })
})

describe('chamberctl completion', () => {
  it('prints the script for the shell asked for', async () => {
    const { code, stdout } = await runMain(['completion', 'zsh'])
    expect(code).toBe(0)
    expect(stdout.startsWith('#compdef chamberctl\n')).toBe(true)
    const powershell = await runMain(['completion', 'powershell'])
    expect(powershell.code).toBe(0)
    expect(powershell.stdout).toMatch(
      /^Register-ArgumentCompleter -Native -CommandName chamberctl /m,
    )
  })

  it('refuses another shell: usage error', async () => {
    const { code, stdout, stderr } = await runMain(['completion', 'tcsh'])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/Allowed choices are bash, zsh, fish, powershell/)
  })

  it('is not listed by --help, and neither is __complete', async () => {
    const { stdout } = await runMain(['--help'])
    expect(stdout).toMatch(/^\s+completion <shell>/m)
    expect(stdout).not.toContain('__complete')
  })

  it('the wiring imports no generator or lookup code up front', async () => {
    const source = await readFile(
      new URL('../../src/commands/completion/index.ts', import.meta.url),
      'utf8',
    )
    const imports = [...source.matchAll(/^import\s[^;]*?from\s+'([^']+)'/gm)].map((m) => m[1])
    expect(imports.sort()).toEqual(
      [
        '../../cmdutil/command.js',
        '../../cmdutil/context.js',
        // its help: the examples and the page on installing the scripts
        '../../cmdutil/manual.js',
        './manual.md?raw',
        './shells.js',
        '@commander-js/extra-typings',
        'commander',
      ].sort(),
    )
    expect(source).toContain("await import('./generate.js')")
    expect(source).toContain("await import('./chamber-ids.js')")
  })
})
