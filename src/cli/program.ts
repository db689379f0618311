// A fresh commander tree per call. Each noun registers its verbs; a verb's code is imported only
// when it runs, so start-up pays for commander and nothing else. Given the arguments, only the
// command they name is built: every other noun's options and help would be work thrown away.
import { Command } from 'commander'
import { registerApi } from '../commands/api/index.js'
import { registerAuth } from '../commands/auth/index.js'
import { registerChambers } from '../commands/chambers/index.js'
import { registerCompletion } from '../commands/completion/index.js'
import { registerDiff } from '../commands/diff/index.js'
import { registerEvents } from '../commands/events/index.js'
import { registerExport } from '../commands/export/index.js'
import { registerFields } from '../commands/fields/index.js'
import { registerMembers } from '../commands/members/index.js'
import { registerReport } from '../commands/report/index.js'
import { registerSandbox } from '../commands/sandbox/index.js'
import { registerSeed } from '../commands/seed/index.js'
import { registerVersion } from '../commands/version/index.js'
import type { Context } from '../cmdutil/context.js'
import { compileGlobals, declareGlobals, resolveGlobals } from '../cmdutil/globals.js'
import { UsageError } from '../errors.js'
import { VERSION } from '../cmdutil/version.js'
import { about } from '../cmdutil/manual.js'
import { isNear } from '../io/suggest.js'
import type { TopLevelCommand } from './commands.js'
import { addHelpCommand, configureHelp, HELP_WIDTH, nounsShowHelp, writeHelp } from './help.js'
import { commandPath } from './tree.js'

type Register = (program: Command, ctx: Context) => void

// Top-level command names and what registers them. A name not here (help, a typo, `completion`,
// which walks the whole tree) builds every command.
const REGISTERS: Record<
  Exclude<TopLevelCommand, 'completion' | '__complete' | 'help'>,
  Register
> = {
  login: registerAuth,
  logout: registerAuth,
  auth: registerAuth,
  chambers: registerChambers,
  members: registerMembers,
  events: registerEvents,
  seed: registerSeed,
  export: registerExport,
  diff: registerDiff,
  report: registerReport,
  api: registerApi,
  sandbox: registerSandbox,
  fields: registerFields,
  version: registerVersion,
}

export function createProgram(ctx: Context, argv?: readonly string[]): Command {
  const program = new Command('chamberctl')
    .description('Administer and query a chamber directory service')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .exitOverride()
    .configureOutput({
      // Help (and --version): through the pager when longer than the terminal, unless --no-pager.
      writeOut: (text) => writeHelp(ctx, text, program.opts().pager !== false),
      writeErr: (text) => ctx.io.err.write(text),
      // Said by main, which catches the error commander throws next (the same text) and says it
      // as every other error: one line, fitted to the terminal.
      outputError: () => {},
      // The terminal's own width, as everything else printed is fitted to it.
      getOutHelpWidth: () => ctx.io.stdoutWidth ?? HELP_WIDTH,
      getErrHelpWidth: () => HELP_WIDTH,
    })
    .showSuggestionAfterError()
  // Inherited by every command added below.
  configureHelp(program, ctx.io)
  about(program, {
    examples: [
      [
        'Try it against the embedded sandbox, no login needed',
        'chamberctl chambers list --sandbox',
      ],
      ['Log in once, then work with your directory', 'chamberctl login'],
      [
        'Every member of a chamber, one JSON object a line',
        'chamberctl members ls ch_0001 --all -o ndjson',
      ],
    ],
  })
  declareGlobals(program).hook('preAction', async (_program, action) => {
    // Completion runs on every TAB and must stay silent; it works without these options.
    if (action.name() === '__complete') {
      try {
        ctx.globals = resolveGlobals(action.optsWithGlobals(), ctx.io)
      } catch {
        // the defaults serve
      }
      return
    }
    const flags = action.optsWithGlobals()
    ctx.globals = resolveGlobals(flags, ctx.io)
    ctx.io.accessible = ctx.globals.accessible
    if (flags.jq !== undefined && WITHOUT_JSON.has(commandPath(action).join(' '))) {
      throw new UsageError(
        `--jq filters JSON output; chamberctl ${commandPath(action).join(' ')} prints none`,
      )
    }
    ctx.globals = await compileGlobals(flags, ctx.globals)
  })
  const name = argv && commandName(program, argv.slice(2))
  const only =
    name !== undefined && Object.hasOwn(REGISTERS, name)
      ? REGISTERS[name as keyof typeof REGISTERS]
      : undefined
  if (only) only(program, ctx)
  else {
    for (const register of new Set(Object.values(REGISTERS))) register(program, ctx)
    registerCompletion(program, ctx)
  }
  nounsShowHelp(program)
  addHelpCommand(program, ctx.io)
  return program
}

// The first argument that is not a global option or its value: the command commander will run.
// Undefined for anything this does not follow (a cluster of short flags, an unknown option).
function commandName(program: Command, args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (!arg.startsWith('-') || arg === '-') return arg
    const flag = arg.startsWith('--') ? arg.split('=', 1)[0]! : arg
    const option = program.options.find((o) => o.long === flag || o.short === flag)
    if (!option) return undefined
    if ((option.required || option.optional) && flag === arg) i++
  }
  return undefined
}

// Commands whose output is not JSON in any format, so that --jq would silently do nothing.
const WITHOUT_JSON = new Set([
  'login',
  'logout',
  'auth token',
  'completion',
  'sandbox',
  'fields',
  'version',
  'help',
])

export function oneLine(message: string): string {
  const text = message.trim()
  return nearChoice(text) ?? text.replace(/\n\(Did you mean (.*)\?\)$/, ' (did you mean $1?)')
}

// commander's refusal of a value outside an option's or an argument's choices, said short when
// a choice is near what was typed: `error: --status actve: did you mean active?`.
const INVALID_CHOICE =
  /^error: (?:option '(--[\w-]+)[^']*' argument|command-argument value) '(.*)' is invalid(?: for argument '(.*)')?\. Allowed choices are (.*)\.$/s

function nearChoice(message: string): string | undefined {
  const [, flag, value, argument, allowed] = INVALID_CHOICE.exec(message) ?? []
  if (value === undefined || allowed === undefined) return undefined
  const near = allowed.split(', ').filter((choice) => isNear(value, [choice]))
  return near.length
    ? `error: ${flag ?? argument} ${value}: did you mean ${near.join(', ')}?`
    : undefined
}
