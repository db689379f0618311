// The fish script: one `complete` line per command, option and argument, each guarded by a
// condition on the command path that the words before the cursor name. Two lookup functions
// generated from the tree (subcommand names, options that take a value) let that walk skip
// option values the way commander does.
import type { CommandSpec, OptionSpec, ValueCompletion } from './model.js'
import { optionWords, walk } from './model.js'

export function fishScript(program: CommandSpec): string {
  const name = program.name
  const h = `__${name.replace(/[^A-Za-z0-9_]/g, '_')}`
  const commands = [...walk(program)]
  const globalWords = new Set(program.options.flatMap(optionWords))
  const complete = (condition: string | undefined, rest: string) =>
    `complete -c ${name}${condition === undefined ? '' : ` -n ${doubleQuote(condition)}`} ${rest}`
  const at = (path: string[], args?: string) =>
    `${h}_at ${quote(path.join(' '))}${args === undefined ? '' : ` ${args}`}`

  const resolveCases = commands.flatMap((command) =>
    command.commands.map(
      (child) =>
        `        case ${[child.name, ...child.aliases].map((word) => quote(`${command.path.join(' ')}|${word}`)).join(' ')}\n            echo ${child.name}`,
    ),
  )

  // A command's own options first: one of them may reuse a global name for a flag.
  const own = commands
    .filter((command) => command.path.length > 0)
    .flatMap((command) => command.options.map((option) => ({ path: command.path, option })))
  const valueCase = (patterns: string[], takesValue: boolean) =>
    `        case ${patterns.map(quote).join(' ')}\n            return ${takesValue ? 0 : 1}`
  const takesValueCases = [
    ...own
      .filter(({ option }) => option.value || optionWords(option).some((w) => globalWords.has(w)))
      .map(({ path, option }) =>
        valueCase(
          optionWords(option).map((word) => `${path.join(' ')}|${word}`),
          option.value !== undefined,
        ),
      ),
    ...program.options
      .filter((option) => option.value)
      .map((option) =>
        valueCase(
          optionWords(option).map((word) => `*|${word}`),
          true,
        ),
      ),
  ]

  const lines: string[] = [complete(undefined, '-f')]
  for (const option of program.options) lines.push(complete(undefined, optionFlags(option, h)))
  for (const command of commands) {
    if (command.commands.length > 0) {
      lines.push('')
      for (const child of command.commands) {
        lines.push(
          complete(at(command.path, '0'), `-a ${child.name} -d ${quote(child.description)}`),
        )
      }
    }
    const own = [...command.options, ...command.overrides]
    if (command.path.length > 0 && (own.length > 0 || command.args.length > 0)) {
      lines.push('')
      for (const option of own) {
        lines.push(complete(at(command.path), optionFlags(option, h)))
      }
      command.args.forEach((argument, index) => {
        const values = argumentValues(argument.complete, h)
        if (values === undefined) return
        const position = argument.variadic ? `${index}+` : String(index)
        lines.push(complete(at(command.path, position), values))
      })
    }
  }

  return `# fish completion for ${name}.
# Generated from ${name}'s command tree by \`${name} completion fish\`: do not edit.
# Install: copy it to ~/.config/fish/completions/${name}.fish

# The subcommand that word $argv[2] names under command path $argv[1]; fails when it names none.
function ${h}_command
    switch "$argv[1]|$argv[2]"
${resolveCases.join('\n')}
        case '*'
            return 1
    end
end

# Whether option $argv[2] of command path $argv[1] takes a value (in the next word).
function ${h}_takes_value
    switch "$argv[1]|$argv[2]"
${takesValueCases.join('\n')}
    end
    return 1
end

# Succeeds when the words before the cursor name command path $argv[1] ('' is ${name}
# itself) and, if $argv[2] is given, have given it that many arguments ("N+": at least N).
function ${h}_at
    set -l words (commandline -opc)
    set -e words[1]
    set -l path ''
    set -l name
    set -l n 0
    set -l options 1
    while set -q words[1]
        set -l word $words[1]
        set -e words[1]
        if test $options = 1; and string match -qr -- '^-.' $word
            if test "$word" = --
                set options 0
            else if not string match -q -- '--*=*' $word; and ${h}_takes_value "$path" $word
                set -e words[1]
            end
        else if test $n = 0; and set name (${h}_command "$path" $word)
            set path (string trim -- "$path $name")
        else
            set n (math $n + 1)
        end
    end
    test "$path" = "$argv[1]"; or return 1
    set -q argv[2]; or return 0
    if string match -q -- '*+' $argv[2]
        test $n -ge (string trim -r -c + -- $argv[2])
    else
        test $n -eq $argv[2]
    end
end

# Lines of \`${name} __complete chamber-ids\` are id<TAB>name, as fish wants them. The
# --profile, --base-url and --sandbox typed on the line choose the server.
function ${h}_chamber_ids
    set -l words (commandline -opc)
    set -l pass
    set -l i 2
    while test $i -le (count $words)
        switch $words[$i]
            case --
                break
            case --sandbox '--profile=*' '--base-url=*'
                set -a pass $words[$i]
            case --profile --base-url
                set -a pass $words[$i]
                set i (math $i + 1)
                set -q words[$i]; and set -a pass $words[$i]
        end
        set i (math $i + 1)
    end
    command ${name} $pass __complete chamber-ids 2>/dev/null
end

# A comma-separated list of $argv: the last element of the word at the cursor is completed after
# the ones before it, which are not offered again.
function ${h}_list
    set -l word (string replace -r -- '^--[^=]*=' '' (commandline -ct))
    set -l head (string match -r -- '^.*,' $word); or set head ''
    set -l given (string split , -- $head)
    for value in $argv
        contains -- $value $given; or echo $head$value
    end
end

# Lines of \`${name} __complete profiles\` are profile names.
function ${h}_profiles
    command ${name} __complete profiles 2>/dev/null
end

${lines.join('\n')}
`
}

function optionFlags(option: OptionSpec, h: string): string {
  const parts: string[] = []
  if (option.short) parts.push(`-s ${option.short.slice(1)}`)
  if (option.long) parts.push(`-l ${option.long.slice(2)}`)
  if (option.value) {
    const values = argumentValues(option.value.complete, h)
    // -r: the option takes a value; -F lets it be a file name despite the script's global -f.
    parts.push(option.value.complete.kind === 'files' ? '-r -F' : '-x')
    if (values !== undefined && option.value.complete.kind !== 'files') parts.push(values)
  }
  parts.push(`-d ${quote(option.description)}`)
  return parts.join(' ')
}

function argumentValues(complete: ValueCompletion, h: string): string | undefined {
  switch (complete.kind) {
    case 'none':
      return undefined
    case 'files':
      return '-F'
    case 'chamber-ids':
      return `-a ${quote(`(${h}_chamber_ids)`)}`
    case 'profiles':
      return `-a ${quote(`(${h}_profiles)`)}`
    case 'choices':
      return `-a ${quote(complete.values.join(' '))}`
    case 'list':
      return `-a ${quote(`(${h}_list ${complete.values.join(' ')})`)}`
  }
}

function quote(text: string): string {
  return `'${text.replace(/[\\']/g, '\\$&')}'`
}

function doubleQuote(text: string): string {
  return `"${text.replace(/[\\"$]/g, '\\$&')}"`
}
