// The zsh script: one function per command, each an _arguments call with the global options,
// the command's own, and its arguments; a command with subcommands describes them and hands the
// rest of the line to the chosen one. Works autoloaded from $fpath and sourced after compinit.
import type { ArgumentSpec, CommandSpec, OptionSpec, ValueCompletion } from './model.js'
import { optionWords, walk } from './model.js'
import { shellWord } from '../../io/shell-word.js'

export function zshScript(program: CommandSpec): string {
  const name = program.name
  const fn = `_${identifier(name)}`
  const globals = `_${identifier(name)}_globals`
  const line = `_${identifier(name)}_line`
  const functionOf = (command: CommandSpec) =>
    [`${fn}_cmd`, ...command.path.map(identifier)].join('_')

  const bodies = [...walk(program)].map((command) => {
    const specs = [
      globalSpecs(globals, command.overrides),
      // The program's own options are the global ones, already in the array.
      ...(command.path.length === 0
        ? []
        : [...command.options, ...command.overrides].flatMap((option) => optionSpecs(option, fn))),
      ...(command.commands.length > 0
        ? [shellWord('1: :->command'), shellWord('*:: :->argument')]
        : command.args.map((argument, index) => argumentSpec(argument, index, fn))),
    ]
    // -A '-*': past its subcommand, a group leaves every word (global options included) to the
    // subcommand's function; parsing them here would take them out of that function's words.
    const flags = command.commands.length > 0 ? `-S -C -A '-*'` : '-S'
    const call = `_arguments ${flags} : ${specs.join(' \\\n    ')}`
    if (command.commands.length === 0) return `${functionOf(command)}() {\n  ${call}\n}`

    const context = [name, ...command.path].join('-')
    const described = command.commands.map((child) =>
      shellWord(`${escapeColon(child.name)}:${child.description}`),
    )
    const dispatch = command.commands.map(
      (child) =>
        `        ${[child.name, ...child.aliases].join(' | ')}) ${functionOf(child)} && ret=0 ;;`,
    )
    return `${functionOf(command)}() {
  local curcontext=$curcontext state state_descr line ret=1
  typeset -A opt_args
  ${call} && ret=0
  case $state in
    command)
      local -a commands=(
        ${described.join('\n        ')}
      )
      _describe -t commands ${shellWord(`${[name, ...command.path].join(' ')} command`)} commands && ret=0
      ;;
    argument)
      curcontext=\${curcontext%:*:*}:${context}-$line[1]:
      case $line[1] in
${dispatch.join('\n')}
      esac
      ;;
  esac
  return ret
}`
  })

  return `#compdef ${name}
# zsh completion for ${name}.
# Generated from ${name}'s command tree by \`${name} completion zsh\`: do not edit.
# Install: save it as _${name} in a directory on $fpath, before compinit runs.

${fn}() {
  # The words before the cursor, kept before _arguments narrows $words to a subcommand's: the
  # --profile, --base-url and --sandbox given anywhere on the line choose the server.
  local -a ${line}=("\${(@)words[1,CURRENT-1]}")
  local -a ${globals}=(
    ${program.options.flatMap((option) => optionSpecs(option, fn)).join('\n    ')}
  )
  ${functionOf(program)}
}

${bodies.join('\n\n')}

# Lines of \`${name} __complete chamber-ids\` are id<TAB>name.
${fn}_chamber_ids() {
  local -a pass ids
  local i word id entry
  for ((i = 2; i <= \${#${line}}; i++)); do
    word=\${(Q)${line}[i]}
    case $word in
      --) break ;;
      --sandbox | --profile=* | --base-url=*) pass+=("$word") ;;
      --profile | --base-url) pass+=("$word" "\${(Q)${line}[i+1]}"); ((i++)) ;;
    esac
  done
  for entry in \${(f)"$(command ${name} "\${pass[@]}" __complete chamber-ids 2>/dev/null)"}; do
    id=\${entry%%$'\\t'*}
    if [[ $entry == *$'\\t'* ]]; then
      ids+=("\${id//:/\\\\:}:\${entry#*$'\\t'}")
    else
      ids+=("\${id//:/\\\\:}")
    fi
  done
  _describe -t chamber-ids 'chamber id' ids
}

# Lines of \`${name} __complete profiles\` are profile names.
${fn}_profiles() {
  local -a names
  names=(\${(f)"$(command ${name} __complete profiles 2>/dev/null)"})
  _describe -t profiles 'profile' names
}

if [[ $funcstack[1] == ${fn} ]]; then
  # Autoloaded from $fpath: this file is the body of ${fn}, run by the first TAB.
  ${fn} "$@"
else
  # Sourced: register with the completion system, which compinit has loaded.
  compdef ${fn} ${name}
fi
`
}

// Every option may be given again (commander keeps the last value, or collects), hence the `*`.
function optionSpecs(option: OptionSpec, fn: string): string[] {
  const description = `[${escapeBrackets(option.description)}]`
  const value = option.value
  const argument = value
    ? `${value.optional ? '::' : ':'}${escapeColon(value.name)}:${action(value.complete, fn)}`
    : ''
  const specs: string[] = []
  // -o+ takes the value in the same word (-ojson) or the next; --output= after = or the next.
  if (option.short) specs.push(`*${option.short}${value ? '+' : ''}${description}${argument}`)
  if (option.long) specs.push(`*${option.long}${value ? '=' : ''}${description}${argument}`)
  return specs.map(shellWord)
}

function argumentSpec(argument: ArgumentSpec, index: number, fn: string): string {
  const position = argument.variadic ? '*' : `${index + 1}${argument.required ? '' : ':'}`
  return shellWord(`${position}:${escapeColon(argument.name)}:${action(argument.complete, fn)}`)
}

// fn is the script's main function; its helpers for chamber ids and profiles are named after it.
function action(complete: ValueCompletion, fn: string): string {
  switch (complete.kind) {
    case 'none':
      // A space: the argument is shown, nothing is offered.
      return ' '
    case 'files':
      return '_files'
    case 'chamber-ids':
      return `${fn}_chamber_ids`
    case 'profiles':
      return `${fn}_profiles`
    case 'choices':
      return `(${complete.values.map(escapeColon).join(' ')})`
    case 'list':
      // _values leaves out the ones already in the list.
      return `_values -s , value ${complete.values.join(' ')}`
  }
}

// The global options' specs, less those the command completes otherwise (given after them).
function globalSpecs(globals: string, overrides: readonly OptionSpec[]): string {
  if (overrides.length === 0) return `"\${${globals}[@]}"`
  const patterns = overrides.flatMap(optionWords).map((word) => `\\*${word}[=+]*`)
  return `"\${(@)${globals}:#(${patterns.join('|')})}"`
}

function identifier(word: string): string {
  return word.replace(/[^A-Za-z0-9_]/g, '_')
}

function escapeBrackets(text: string): string {
  return text.replace(/[\\[\]]/g, '\\$&')
}

function escapeColon(text: string): string {
  return text.replace(/[\\:]/g, '\\$&')
}
