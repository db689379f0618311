// The command tree as the completion scripts need it, read from commander: what a user sees in
// `--help` (hidden commands and options left out), each option's and argument's value, and how
// that value is completed. The three shell renderers work from this model only.
import type { Argument, Command, Option } from 'commander'
import { fieldNames, RESOURCES } from '../../api/resources/index.js'
import { completesOf } from '../../cmdutil/manual.js'
import type { Completes } from '../../cmdutil/manual.js'
import { OUTPUT_FORMATS } from '../../io/format.js'

export type ValueCompletion =
  // A value no script can guess (a name, a URL, a number): nothing is offered.
  | { kind: 'none' }
  | { kind: 'choices'; values: readonly string[] }
  // A comma-separated list of these (`--fields id,na` completes the last one, keeping `id,`).
  | { kind: 'list'; values: readonly string[] }
  | { kind: 'files' }
  // Asked of `chamberctl __complete chamber-ids` at completion time.
  | { kind: 'chamber-ids' }
  // Asked of `chamberctl __complete profiles`: the names of the profiles in the config directory.
  | { kind: 'profiles' }

export type OptionSpec = {
  long?: string
  short?: string
  description: string
  // Absent for a flag. `name` is commander's placeholder: `file` in `--from-file <file>`.
  value?: { name: string; optional: boolean; complete: ValueCompletion }
}

export type ArgumentSpec = {
  name: string
  description: string
  required: boolean
  variadic: boolean
  complete: ValueCompletion
}

export type CommandSpec = {
  name: string
  aliases: string[]
  description: string
  // The command names from the program down to this one: [] for the program itself.
  path: string[]
  // This command's own options; the program's are the global ones, accepted after any command.
  options: OptionSpec[]
  // Global options whose value is completed otherwise under this command: --fields, with the
  // fields of what the command prints.
  overrides: OptionSpec[]
  args: ArgumentSpec[]
  commands: CommandSpec[]
}

// Every name, alias, flag and choice is written into shell code unquoted or in simple quotes;
// anything else would need escaping rules per shell, so it is refused here, at build time.
const SAFE_WORD = /^[A-Za-z0-9_-][A-Za-z0-9_.,:@%+/=-]*$/

export function describeProgram(program: Command): CommandSpec {
  return describeCommand(program, [], [])
}

function describeCommand(
  command: Command,
  path: string[],
  globals: readonly Option[],
): CommandSpec {
  const help = command.createHelp()
  const own = help
    .visibleOptions(command)
    // The help option is declared on every command; it is already a global one.
    .filter((option) => !globals.some((global) => global.flags === option.flags))
  const isProgram = path.length === 0
  const real = new Set(command.commands)
  const children = help
    .visibleCommands(command)
    // commander's implicit `help [command]` is kept on the program only, like git's and gh's.
    .filter((child) => isProgram || real.has(child))
  const completes = completesOf(command)
  const spec: CommandSpec = {
    name: safe(command.name()),
    aliases: command.aliases().map(safe),
    description: oneLine(command.description()),
    path,
    options: own.map((option) => describeOption(option, path, completes)),
    overrides: globals
      .filter((option) => option.long !== undefined && Object.hasOwn(completes, option.long))
      .map((option) => describeOption(option, path, completes)),
    args: command.registeredArguments.map((argument) =>
      describeArgument(argument, path, completes),
    ),
    commands: [],
  }
  spec.commands = children.map((child) =>
    describeCommand(child, [...path, safe(child.name())], isProgram ? own : globals),
  )
  return spec
}

function describeOption(
  option: Option,
  path: string[],
  completes: Readonly<Record<string, Completes>>,
): OptionSpec {
  const spec: OptionSpec = { description: oneLine(option.description) }
  if (option.long) spec.long = safe(option.long)
  if (option.short) spec.short = safe(option.short)
  if (option.required || option.optional) {
    const name = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1]?.replace(/\.\.\.$/, '') ?? 'value'
    spec.value = {
      name,
      optional: option.optional,
      complete: declared(completes[option.long ?? '']) ?? optionValue(option, name, path),
    }
  }
  return spec
}

function optionValue(option: Option, name: string, path: string[]): ValueCompletion {
  if (option.argChoices) return choices(option.argChoices)
  // -o keeps its own validation (case-insensitive, with its own message) rather than commander's
  // .choices(), so its values come from the list that validation uses.
  if (path.length === 0 && option.long === '--output') return choices(OUTPUT_FORMATS)
  if (option.long === '--hq-id') return { kind: 'chamber-ids' }
  if (option.long === '--profile') return { kind: 'profiles' }
  return /file/i.test(name) ? { kind: 'files' } : { kind: 'none' }
}

function describeArgument(
  argument: Argument,
  path: string[],
  completes: Readonly<Record<string, Completes>>,
): ArgumentSpec {
  return {
    name: argument.name(),
    description: oneLine(argument.description),
    required: argument.required,
    variadic: argument.variadic,
    complete: declared(completes[argument.name()]) ?? argumentValue(argument, path),
  }
}

// What the command declared beside its registration (cmdutil/manual.ts), if anything.
function declared(completes: Completes | undefined): ValueCompletion | undefined {
  if (!completes) return undefined
  if ('fieldsOf' in completes) {
    const { fieldsOf } = completes
    const descriptor = typeof fieldsOf === 'string' ? RESOURCES[fieldsOf] : fieldsOf
    return { kind: 'list', values: fieldNames(descriptor).map(safe) }
  }
  return choices(completes.words())
}

// A chamber id is asked for as <chamber-id>, or as <id> by the commands of the `chambers` noun.
function argumentValue(argument: Argument, path: string[]): ValueCompletion {
  const name = argument.name()
  if (argument.argChoices) return choices(argument.argChoices)
  if (name === 'chamber-id' || (name === 'id' && path[0] === 'chambers')) {
    return { kind: 'chamber-ids' }
  }
  if (name === 'profile') return { kind: 'profiles' }
  return /file/i.test(name) ? { kind: 'files' } : { kind: 'none' }
}

function choices(values: readonly string[]): ValueCompletion {
  return { kind: 'choices', values: values.map(safe) }
}

function safe(word: string): string {
  if (!SAFE_WORD.test(word)) {
    throw new Error(`cannot write ${JSON.stringify(word)} into a completion script`)
  }
  return word
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

// Every command of the tree, the program first, parents before their children.
export function* walk(spec: CommandSpec): Generator<CommandSpec> {
  yield spec
  for (const child of spec.commands) yield* walk(child)
}

export function optionWords(option: OptionSpec): string[] {
  return [option.short, option.long].filter((word): word is string => word !== undefined)
}
