// A fresh commander tree per call. Each noun registers its verbs; a verb's code is imported only
// when it runs, so start-up pays for commander and nothing else.
import { Command } from 'commander'
import { registerSandbox } from '../commands/sandbox/index.js'
import type { Context } from './context.js'
import { VERSION } from './version.js'

export function createProgram(ctx: Context): Command {
  const program = new Command('chamberctl')
    .description('Administer and query a chamber directory service')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.io.out.write(text),
      writeErr: (text) => ctx.io.err.write(text),
    })
    .showSuggestionAfterError()
  registerSandbox(program, ctx)
  return program
}
