// The bash script: the tree becomes four lookup functions (subcommands, options, option values,
// argument values) keyed by command path, and one fixed function walks the words typed so far
// through them. It needs bash 4 and nothing from the bash-completion package.
import type { CommandSpec, OptionSpec, ValueCompletion } from './model.js'
import { optionWords, walk } from './model.js'

export function bashScript(program: CommandSpec): string {
  const name = program.name
  const fn = `_${name.replace(/-/g, '_')}`
  // Helpers get one more underscore, as bash-completion names its own.
  const h = `_${fn}`
  const commands = [...walk(program)]
  const globals = program.options
  const globalWords = new Set(globals.flatMap(optionWords))

  const subcommandCases = commands
    .filter((command) => command.commands.length > 0)
    .map(
      (command) =>
        `    ${key(command.path)}) REPLY=${words(command.commands.map((c) => c.name))} ;;`,
    )

  const resolveCases = commands.flatMap((command) =>
    command.commands.map((child) => {
      const patterns = [child.name, ...child.aliases].map((word) => pair(command.path, word))
      return `    ${patterns.join(' | ')}) REPLY=${child.name} ;;`
    }),
  )

  const optionCases = commands
    .filter((command) => command.path.length > 0 && command.options.length > 0)
    .map(
      (command) =>
        `    ${key(command.path)}) REPLY+=${words(command.options.flatMap(optionWords), ' ')} ;;`,
    )

  // A command's own options come first: one of them may reuse a global name for a flag.
  const valueCases = [
    ...commands
      .filter((command) => command.path.length > 0)
      .flatMap((command) =>
        [
          ...command.options.filter(
            (option) => option.value || optionWords(option).some((w) => globalWords.has(w)),
          ),
          ...command.overrides,
        ].map((option) => valueCase(command.path, option)),
      ),
    ...globals.filter((option) => option.value).map((option) => valueCase(undefined, option)),
  ]

  const argumentCases = commands.flatMap((command) =>
    command.args.map((argument, index) => {
      const pattern = argument.variadic
        ? `${key(command.path).slice(0, -1)}|'*`
        : pair(command.path, String(index))
      return `    ${pattern}) REPLY=${kind(argument.complete)} ;;`
    }),
  )

  return `# bash completion for ${name}                                   -*- shell-script -*-
# Generated from ${name}'s command tree by \`${name} completion bash\`: do not edit.
# Install: source it from ~/.bashrc, or copy it to
# ~/.local/share/bash-completion/completions/${name}

# The subcommands of a command path ('' is ${name} itself), in REPLY.
${h}_commands() {
  case $1 in
${subcommandCases.join('\n')}
    *) REPLY='' ;;
  esac
}

# The subcommand that word $2 names under command path $1, in REPLY; fails when it names none.
${h}_command() {
  case "$1|$2" in
${resolveCases.join('\n')}
    *) return 1 ;;
  esac
}

# The options of command path $1, the global ones included, in REPLY.
${h}_options() {
  REPLY=${words(globals.flatMap(optionWords))}
  case $1 in
${optionCases.join('\n')}
  esac
}

# How the value of option $2 of command path $1 is completed, in REPLY: '' when it takes no
# value, else none, files, chamber-ids, profiles, 'choices VALUE...', or 'list VALUE...' (a
# comma-separated list of them).
${h}_option_value() {
  case "$1|$2" in
${valueCases.join('\n')}
    *) REPLY='' ;;
  esac
}

# How argument $2 (from 0) of command path $1 is completed, in REPLY, as for an option's value.
${h}_argument() {
  case "$1|$2" in
${argumentCases.join('\n')}
    *) REPLY=none ;;
  esac
}

# Adds the candidates for a value of kind $1 that start with $2 to COMPREPLY, each prefixed with
# $3 (the "--option=" of a value typed in the same word).
${h}_values() {
  local kind=$1 cur=$2 pre=$3 value
  local -a list
  case $kind in
    'choices '*)
      read -ra list <<<"\${kind#choices }"
      for value in "\${list[@]}"; do
        [[ $value == "$cur"* ]] && COMPREPLY+=("$pre$value")
      done
      ;;
    'list '*)
      # The last element is completed after the ones before it, which are not offered again;
      # no space follows, so that a comma can.
      local head=\${cur%"\${cur##*,}"}
      read -ra list <<<"\${kind#list }"
      for value in "\${list[@]}"; do
        [[ $value == "\${cur##*,}"* && ,$head != *,$value,* ]] && COMPREPLY+=("$pre$head$value")
      done
      compopt -o nospace 2>/dev/null
      ;;
    files)
      compopt -o filenames 2>/dev/null
      while IFS= read -r value; do
        COMPREPLY+=("$pre$value")
      done < <(compgen -f -- "$cur")
      ;;
    chamber-ids)
      # Lines are id<TAB>name. bash has no descriptions of its own, so (cobra's way) each of
      # several ids is listed as "id  (name)", padded to one column and cut to the terminal's
      # width; one id alone, or ids inserted one at a time (menu-complete), go in bare.
      local -a names
      local name width=0 room i
      while IFS=$'\\t' read -r value name; do
        [[ -n $value && $value == "$cur"* ]] || continue
        list+=("$value") names+=("$name")
        ((\${#value} > width)) && width=\${#value}
      done < <(command ${name} "\${pass[@]}" __complete chamber-ids 2>/dev/null)
      room=$((\${COLUMNS:-80} - width - 4))
      for i in "\${!list[@]}"; do
        value=\${list[i]} name=\${names[i]}
        if ((\${#list[@]} > 1 && room > 0)) && [[ -n $name && $COMP_TYPE != 37 && $COMP_TYPE != 42 ]]; then
          ((\${#name} > room)) && name="\${name:0:room-1}…"
          printf -v value '%-*s  (%s)' "$width" "$value" "$name"
        fi
        COMPREPLY+=("$pre$value")
      done
      ;;
    profiles)
      while IFS= read -r value; do
        [[ -n $value && $value == "$cur"* ]] && COMPREPLY+=("$pre$value")
      done < <(command ${name} __complete profiles 2>/dev/null)
      ;;
  esac
}

# COMP_WORDS is split at COMP_WORDBREAKS as well as at blanks (--base-url=http://h:1/v2 is five
# words): this joins back the pieces no blank separates in COMP_LINE, into words and cword.
${h}_words() {
  local line=$COMP_LINE rest word i
  words=() cword=-1
  for ((i = 0; i < \${#COMP_WORDS[@]}; i++)); do
    word=\${COMP_WORDS[i]}
    rest=\${line#"\${line%%[![:space:]]*}"}
    if [[ \${rest:0:\${#word}} != "$word" ]]; then
      words=("\${COMP_WORDS[@]}") cword=$COMP_CWORD
      return
    fi
    if ((i > 0 && \${#rest} == \${#line})); then
      words[\${#words[@]} - 1]+=$word
    else
      words+=("$word")
    fi
    ((i == COMP_CWORD)) && cword=$((\${#words[@]} - 1))
    line=\${rest:\${#word}}
  done
  ((cword >= 0)) || cword=$((\${#words[@]} - 1))
}

${fn}() {
  local REPLY cur word path='' pending='' options=1 n=0 i
  local -a words pass
  local cword
  COMPREPLY=()
  ${h}_words
  cur=\${words[cword]}

  # Which command the words before the cursor name, how many arguments they give it, and the
  # words that choose the server, passed on to \`${name} __complete\`.
  for ((i = 1; i < cword; i++)); do
    word=\${words[i]}
    if ((options)) && [[ $word == -?* ]]; then
      case $word in
        --) options=0 ;;
        --sandbox | --profile=* | --base-url=*) pass+=("\${word//[\\"\\']/}") ;;
        --*=*) ;;
        *)
          ${h}_option_value "$path" "$word"
          [[ -z $REPLY ]] && continue
          if ((i + 1 == cword)); then
            pending=$REPLY
          else
            ((i++))
            [[ $word == --profile || $word == --base-url ]] && pass+=("$word" "\${words[i]//[\\"\\']/}")
          fi
          ;;
      esac
    elif ((n == 0)) && ${h}_command "$path" "$word"; then
      path=\${path:+$path }$REPLY
    else
      ((n++))
    fi
  done

  if [[ -n $pending ]]; then
    ${h}_values "$pending" "$cur" ''
  elif ((options)) && [[ $cur == --*=* ]]; then
    ${h}_option_value "$path" "\${cur%%=*}"
    [[ -n $REPLY ]] && ${h}_values "$REPLY" "\${cur#*=}" "\${cur%%=*}="
  elif ((options)) && [[ $cur == -* ]]; then
    ${h}_options "$path"
    ${h}_values "choices $REPLY" "$cur" ''
  else
    ${h}_commands "$path"
    if [[ -n $REPLY ]] && ((n == 0)); then
      ${h}_values "choices $REPLY" "$cur" ''
    else
      ${h}_argument "$path" "$n"
      ${h}_values "$REPLY" "$cur" ''
    fi
  fi

  # Readline replaces only what follows the last word-break character of the word (the "=" of
  # --output=json, the ":" of an id), so the candidates lose what precedes it.
  local breaks='' before
  [[ $COMP_WORDBREAKS == *=* ]] && breaks+='='
  [[ $COMP_WORDBREAKS == *:* ]] && breaks+=':'
  if [[ -n $breaks && $cur == *[$breaks]* && \${#COMPREPLY[@]} -gt 0 ]]; then
    before=\${cur%"\${cur##*[$breaks]}"}
    COMPREPLY=("\${COMPREPLY[@]#"$before"}")
  fi
  return 0
}

complete -F ${fn} ${name}
`
}

function valueCase(path: string[] | undefined, option: OptionSpec): string {
  const patterns = optionWords(option).map((word) =>
    path === undefined ? `*'|${word}'` : pair(path, word),
  )
  return `    ${patterns.join(' | ')}) REPLY=${option.value ? kind(option.value.complete) : "''"} ;;`
}

function kind(complete: ValueCompletion): string {
  return complete.kind === 'choices' || complete.kind === 'list'
    ? `'${complete.kind} ${complete.values.join(' ')}'`
    : complete.kind
}

// Words of the model are checked to need no quoting but '; the case labels are quoted anyway.
function key(path: string[]): string {
  return `'${path.join(' ')}'`
}

function pair(path: string[], word: string): string {
  return `'${path.join(' ')}|${word}'`
}

function words(list: string[], lead = ''): string {
  return `'${lead}${list.join(' ')}'`
}
