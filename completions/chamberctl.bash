# bash completion for chamberctl                                   -*- shell-script -*-
# Generated from chamberctl's command tree by `chamberctl completion bash`: do not edit.
# Install: source it from ~/.bashrc, or copy it to
# ~/.local/share/bash-completion/completions/chamberctl

# The subcommands of a command path ('' is chamberctl itself), in REPLY.
__chamberctl_commands() {
  case $1 in
    '') REPLY='login logout auth chambers members events seed export diff report api sandbox fields version completion help' ;;
    'auth') REPLY='status switch token' ;;
    'chambers') REPLY='list get create' ;;
    'members') REPLY='list add' ;;
    'events') REPLY='list' ;;
    'report') REPLY='members duplicates' ;;
    *) REPLY='' ;;
  esac
}

# The subcommand that word $2 names under command path $1, in REPLY; fails when it names none.
__chamberctl_command() {
  case "$1|$2" in
    '|login') REPLY=login ;;
    '|logout') REPLY=logout ;;
    '|auth') REPLY=auth ;;
    '|chambers') REPLY=chambers ;;
    '|members') REPLY=members ;;
    '|events') REPLY=events ;;
    '|seed') REPLY=seed ;;
    '|export') REPLY=export ;;
    '|diff') REPLY=diff ;;
    '|report') REPLY=report ;;
    '|api') REPLY=api ;;
    '|sandbox') REPLY=sandbox ;;
    '|fields') REPLY=fields ;;
    '|version') REPLY=version ;;
    '|completion') REPLY=completion ;;
    '|help') REPLY=help ;;
    'auth|status') REPLY=status ;;
    'auth|switch') REPLY=switch ;;
    'auth|token') REPLY=token ;;
    'chambers|list' | 'chambers|ls') REPLY=list ;;
    'chambers|get' | 'chambers|show' | 'chambers|view') REPLY=get ;;
    'chambers|create') REPLY=create ;;
    'members|list' | 'members|ls') REPLY=list ;;
    'members|add') REPLY=add ;;
    'events|list' | 'events|ls') REPLY=list ;;
    'report|members') REPLY=members ;;
    'report|duplicates') REPLY=duplicates ;;
    *) return 1 ;;
  esac
}

# The options of command path $1, the global ones included, in REPLY.
__chamberctl_options() {
  REPLY='-V --version --profile --base-url --sandbox -o --output --json --fields --wide --jq --no-color --no-input -y --yes --debug --timeout --insecure-http -q --quiet --no-pager --accessible -h --help'
  case $1 in
    'login') REPLY+=' --client-id --client-secret-stdin --no-store-secret --insecure-storage' ;;
    'chambers list') REPLY+=' --type --status --sort --page --per-page --all --limit' ;;
    'chambers get') REPLY+=' --include' ;;
    'chambers create') REPLY+=' --name --type --hq-id --address --address-field --from-file --dry-run' ;;
    'members list') REPLY+=' --status --sort --page --per-page --all --limit' ;;
    'members add') REPLY+=' --name --email --phone --membership-type --from-file --dry-run --concurrency --verbose --skip-existing --resume' ;;
    'events list') REPLY+=' --status --from --to --page --per-page --all --limit' ;;
    'seed') REPLY+=' --dry-run --offline --report --concurrency --verbose --skip-existing --resume' ;;
    'export') REPLY+=' --type --status --members' ;;
    'diff') REPLY+=' --members' ;;
    'report members') REPLY+=' --type --status --member-status --limit' ;;
    'report duplicates') REPLY+=' --type --status --member-status' ;;
    'api') REPLY+=' -X --method -f --raw-field -F --field --input -H --header --paginate -i --include' ;;
    'sandbox') REPLY+=' --host --port --data --empty --demo-members --token-ttl --client-id --client-secret --latency --fail-rate --port-file --cors --strict --check' ;;
  esac
}

# How the value of option $2 of command path $1 is completed, in REPLY: '' when it takes no
# value, else none, files, chamber-ids, profiles, 'choices VALUE...', or 'list VALUE...' (a
# comma-separated list of them).
__chamberctl_option_value() {
  case "$1|$2" in
    'login|--client-id') REPLY=none ;;
    'chambers list|--type') REPLY='choices hq subsidiary' ;;
    'chambers list|--status') REPLY='choices active inactive pending' ;;
    'chambers list|--sort') REPLY=none ;;
    'chambers list|--page') REPLY=none ;;
    'chambers list|--per-page') REPLY=none ;;
    'chambers list|--limit') REPLY=none ;;
    'chambers list|--fields') REPLY='list id name type hq_id status address address.street address.city address.postal_code address.region address.country created_at members events' ;;
    'chambers get|--include') REPLY=none ;;
    'chambers get|--fields') REPLY='list id name type hq_id status address address.street address.city address.postal_code address.region address.country created_at members events' ;;
    'chambers create|--name') REPLY=none ;;
    'chambers create|--type') REPLY='choices hq subsidiary' ;;
    'chambers create|--hq-id') REPLY=chamber-ids ;;
    'chambers create|--address') REPLY=none ;;
    'chambers create|--address-field') REPLY=none ;;
    'chambers create|--from-file') REPLY=files ;;
    'chambers create|--fields') REPLY='list id name type hq_id status address address.street address.city address.postal_code address.region address.country created_at members events' ;;
    'members list|--status') REPLY='choices active inactive pending' ;;
    'members list|--sort') REPLY=none ;;
    'members list|--page') REPLY=none ;;
    'members list|--per-page') REPLY=none ;;
    'members list|--limit') REPLY=none ;;
    'members list|--fields') REPLY='list id name email phone membership_type status joined_at chamber_id' ;;
    'members add|--name') REPLY=none ;;
    'members add|--email') REPLY=none ;;
    'members add|--phone') REPLY=none ;;
    'members add|--membership-type') REPLY=none ;;
    'members add|--from-file') REPLY=files ;;
    'members add|--concurrency') REPLY=none ;;
    'events list|--status') REPLY='choices upcoming past canceled' ;;
    'events list|--from') REPLY=none ;;
    'events list|--to') REPLY=none ;;
    'events list|--page') REPLY=none ;;
    'events list|--per-page') REPLY=none ;;
    'events list|--limit') REPLY=none ;;
    'events list|--fields') REPLY='list id chamber_id title status starts_at ends_at location created_at' ;;
    'seed|--report') REPLY=files ;;
    'seed|--concurrency') REPLY=none ;;
    'export|--type') REPLY='choices hq subsidiary' ;;
    'export|--status') REPLY='choices active inactive pending' ;;
    'report members|--type') REPLY='choices hq subsidiary' ;;
    'report members|--status') REPLY='choices active inactive pending' ;;
    'report members|--member-status') REPLY='choices active inactive pending' ;;
    'report members|--limit') REPLY=none ;;
    'report members|--fields') REPLY='list chamber_id chamber_name chamber_city id name email phone membership_type status joined_at' ;;
    'report duplicates|--type') REPLY='choices hq subsidiary' ;;
    'report duplicates|--status') REPLY='choices active inactive pending' ;;
    'report duplicates|--member-status') REPLY='choices active inactive pending' ;;
    'report duplicates|--fields') REPLY='list key chamber_id chamber_name member_id name email' ;;
    'api|-X' | 'api|--method') REPLY=none ;;
    'api|-f' | 'api|--raw-field') REPLY=none ;;
    'api|-F' | 'api|--field') REPLY=none ;;
    'api|--input') REPLY=files ;;
    'api|-H' | 'api|--header') REPLY=none ;;
    'sandbox|--host') REPLY=none ;;
    'sandbox|--port') REPLY=none ;;
    'sandbox|--data') REPLY=files ;;
    'sandbox|--demo-members') REPLY=none ;;
    'sandbox|--token-ttl') REPLY=none ;;
    'sandbox|--client-id') REPLY=none ;;
    'sandbox|--client-secret') REPLY=none ;;
    'sandbox|--latency') REPLY=none ;;
    'sandbox|--fail-rate') REPLY=none ;;
    'sandbox|--port-file') REPLY=files ;;
    'sandbox|--cors') REPLY=none ;;
    *'|--profile') REPLY=profiles ;;
    *'|--base-url') REPLY=none ;;
    *'|-o' | *'|--output') REPLY='choices table tsv json ndjson csv yaml' ;;
    *'|--fields') REPLY=none ;;
    *'|--jq') REPLY=none ;;
    *'|--timeout') REPLY=none ;;
    *) REPLY='' ;;
  esac
}

# How argument $2 (from 0) of command path $1 is completed, in REPLY, as for an option's value.
__chamberctl_argument() {
  case "$1|$2" in
    'auth switch|0') REPLY=profiles ;;
    'chambers get|0') REPLY=chamber-ids ;;
    'members list|0') REPLY=chamber-ids ;;
    'members add|0') REPLY=chamber-ids ;;
    'events list|0') REPLY=chamber-ids ;;
    'seed|0') REPLY=files ;;
    'export|'*) REPLY=chamber-ids ;;
    'diff|0') REPLY=none ;;
    'api|0') REPLY=none ;;
    'fields|0') REPLY='choices chambers members events' ;;
    'completion|0') REPLY='choices bash zsh fish powershell' ;;
    'help|'*) REPLY='choices environment exit-codes formatting bulk fixtures credentials options reference login logout auth chambers members events seed export diff report api sandbox fields version completion help' ;;
    *) REPLY=none ;;
  esac
}

# Adds the candidates for a value of kind $1 that start with $2 to COMPREPLY, each prefixed with
# $3 (the "--option=" of a value typed in the same word).
__chamberctl_values() {
  local kind=$1 cur=$2 pre=$3 value
  local -a list
  case $kind in
    'choices '*)
      read -ra list <<<"${kind#choices }"
      for value in "${list[@]}"; do
        [[ $value == "$cur"* ]] && COMPREPLY+=("$pre$value")
      done
      ;;
    'list '*)
      # The last element is completed after the ones before it, which are not offered again;
      # no space follows, so that a comma can.
      local head=${cur%"${cur##*,}"}
      read -ra list <<<"${kind#list }"
      for value in "${list[@]}"; do
        [[ $value == "${cur##*,}"* && ,$head != *,$value,* ]] && COMPREPLY+=("$pre$head$value")
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
      while IFS=$'\t' read -r value name; do
        [[ -n $value && $value == "$cur"* ]] || continue
        list+=("$value") names+=("$name")
        ((${#value} > width)) && width=${#value}
      done < <(command chamberctl "${pass[@]}" __complete chamber-ids 2>/dev/null)
      room=$((${COLUMNS:-80} - width - 4))
      for i in "${!list[@]}"; do
        value=${list[i]} name=${names[i]}
        if ((${#list[@]} > 1 && room > 0)) && [[ -n $name && $COMP_TYPE != 37 && $COMP_TYPE != 42 ]]; then
          ((${#name} > room)) && name="${name:0:room-1}…"
          printf -v value '%-*s  (%s)' "$width" "$value" "$name"
        fi
        COMPREPLY+=("$pre$value")
      done
      ;;
    profiles)
      while IFS= read -r value; do
        [[ -n $value && $value == "$cur"* ]] && COMPREPLY+=("$pre$value")
      done < <(command chamberctl __complete profiles 2>/dev/null)
      ;;
  esac
}

# COMP_WORDS is split at COMP_WORDBREAKS as well as at blanks (--base-url=http://h:1/v2 is five
# words): this joins back the pieces no blank separates in COMP_LINE, into words and cword.
__chamberctl_words() {
  local line=$COMP_LINE rest word i
  words=() cword=-1
  for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
    word=${COMP_WORDS[i]}
    rest=${line#"${line%%[![:space:]]*}"}
    if [[ ${rest:0:${#word}} != "$word" ]]; then
      words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
      return
    fi
    if ((i > 0 && ${#rest} == ${#line})); then
      words[${#words[@]} - 1]+=$word
    else
      words+=("$word")
    fi
    ((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
    line=${rest:${#word}}
  done
  ((cword >= 0)) || cword=$((${#words[@]} - 1))
}

_chamberctl() {
  local REPLY cur word path='' pending='' options=1 n=0 i
  local -a words pass
  local cword
  COMPREPLY=()
  __chamberctl_words
  cur=${words[cword]}

  # Which command the words before the cursor name, how many arguments they give it, and the
  # words that choose the server, passed on to `chamberctl __complete`.
  for ((i = 1; i < cword; i++)); do
    word=${words[i]}
    if ((options)) && [[ $word == -?* ]]; then
      case $word in
        --) options=0 ;;
        --sandbox | --profile=* | --base-url=*) pass+=("${word//[\"\']/}") ;;
        --*=*) ;;
        *)
          __chamberctl_option_value "$path" "$word"
          [[ -z $REPLY ]] && continue
          if ((i + 1 == cword)); then
            pending=$REPLY
          else
            ((i++))
            [[ $word == --profile || $word == --base-url ]] && pass+=("$word" "${words[i]//[\"\']/}")
          fi
          ;;
      esac
    elif ((n == 0)) && __chamberctl_command "$path" "$word"; then
      path=${path:+$path }$REPLY
    else
      ((n++))
    fi
  done

  if [[ -n $pending ]]; then
    __chamberctl_values "$pending" "$cur" ''
  elif ((options)) && [[ $cur == --*=* ]]; then
    __chamberctl_option_value "$path" "${cur%%=*}"
    [[ -n $REPLY ]] && __chamberctl_values "$REPLY" "${cur#*=}" "${cur%%=*}="
  elif ((options)) && [[ $cur == -* ]]; then
    __chamberctl_options "$path"
    __chamberctl_values "choices $REPLY" "$cur" ''
  else
    __chamberctl_commands "$path"
    if [[ -n $REPLY ]] && ((n == 0)); then
      __chamberctl_values "choices $REPLY" "$cur" ''
    else
      __chamberctl_argument "$path" "$n"
      __chamberctl_values "$REPLY" "$cur" ''
    fi
  fi

  # Readline replaces only what follows the last word-break character of the word (the "=" of
  # --output=json, the ":" of an id), so the candidates lose what precedes it.
  local breaks='' before
  [[ $COMP_WORDBREAKS == *=* ]] && breaks+='='
  [[ $COMP_WORDBREAKS == *:* ]] && breaks+=':'
  if [[ -n $breaks && $cur == *[$breaks]* && ${#COMPREPLY[@]} -gt 0 ]]; then
    before=${cur%"${cur##*[$breaks]}"}
    COMPREPLY=("${COMPREPLY[@]#"$before"}")
  fi
  return 0
}

complete -F _chamberctl chamberctl
