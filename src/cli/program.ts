// A fresh commander tree per call. Each noun registers its verbs; a verb's code is imported only
// when it runs, so start-up pays for commander and nothing else.
import { Command } from 'commander'
import { registerApi } from '../commands/api/index.js'
import { registerAuth } from '../commands/auth/index.js'
import { registerChambers } from '../commands/chambers/index.js'
import { registerCompletion } from '../commands/completion/index.js'
import { registerEvents } from '../commands/events/index.js'
import { registerMembers } from '../commands/members/index.js'
import { registerSandbox } from '../commands/sandbox/index.js'
import { registerSeed } from '../commands/seed/index.js'
import type { Context } from './context.js'
import { declareGlobals, resolveGlobals } from './globals.js'
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
      // One line, as every error is: commander puts its "(Did you mean …?)" on a second one.
      outputError: (text, write) => write(`${oneLine(text)}\n`),
    })
    .showSuggestionAfterError()
  declareGlobals(program).hook('preAction', (_program, action) => {
    try {
      ctx.globals = resolveGlobals(action.optsWithGlobals(), ctx.io)
    } catch (error) {
      // Completion runs on every TAB and must stay silent; it works without these options.
      if (action.name() !== '__complete') throw error
    }
  })
  registerAuth(program, ctx)
  registerChambers(program, ctx)
  registerMembers(program, ctx)
  registerEvents(program, ctx)
  registerSeed(program, ctx)
  registerApi(program, ctx)
  registerSandbox(program, ctx)
  registerCompletion(program, ctx)
  return program
}

export function oneLine(message: string): string {
  return message.trim().replace(/\n\(Did you mean (.*)\?\)$/, ' (did you mean $1?)')
}
