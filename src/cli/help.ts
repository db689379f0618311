// Help that teaches, the way gh's does: every command ends with a few examples, a subcommand's
// help lists the global options it accepts, and `help <command...>` finds a command by its path
// or says which ones come close.
import type { Command } from 'commander'
import { UsageError } from '../errors.js'
import { isNear } from '../io/suggest.js'

// What the example shows, then the command line as a user types it.
export type Example = readonly [what: string, commandLine: string]

// Adds each command's examples (keyed by its path, '' for the program) to the end of its help.
export function addExamples(program: Command, examples: Record<string, readonly Example[]>): void {
  const visit = (command: Command) => {
    const own = examples[commandPath(command).join(' ')]
    if (own?.length) {
      const text = own.map(([what, line]) => `  # ${what}\n  $ ${line}`).join('\n\n')
      command.addHelpText('after', `\nExamples:\n${text}\n`)
    }
    command.commands.forEach(visit)
  }
  visit(program)
}

// `help [command...]`: prints the help of the command at that path, on stdout.
export function addHelpCommand(program: Command): void {
  program.helpCommand(false)
  program
    .command('help')
    .description('show help for a command, e.g. help members add')
    .argument('[command...]', 'the command')
    .action((path: string[]) => findCommand(program, path).outputHelp())
}

export function findCommand(program: Command, path: readonly string[]): Command {
  let command = program
  for (const name of path) {
    const visible = command.commands.filter((child) => !isHidden(child))
    const next = visible.find((child) => child.name() === name || child.aliases().includes(name))
    if (!next) {
      const where = [...commandPath(command), name].join(' ')
      throw new UsageError(`unknown command "${where}"${suggestion(name, visible)}`)
    }
    command = next
  }
  return command
}

function commandPath(command: Command): string[] {
  const names: string[] = []
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name())
  return names
}

function isHidden(command: Command): boolean {
  // commander keeps `hidden` on the instance without a public getter.
  return (command as unknown as { _hidden?: boolean })._hidden === true
}

// The commands a typo most likely meant, by name or alias; otherwise every command, so the user
// sees what there is.
function suggestion(typed: string, commands: readonly Command[]): string {
  const close = commands
    .filter((c) => isNear(typed, [c.name(), ...c.aliases()]))
    .map((c) => c.name())
  return close.length
    ? ` (did you mean ${close.join(', ')}?)`
    : `; commands: ${commands.map((c) => c.name()).join(', ')}`
}
