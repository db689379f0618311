# zsh -f zsh-capture.zsh <fpath directory> <line>: prints, one per line as <candidate>, what zsh's
# completion system offers for <line> followed by TAB. An interactive zsh in a pseudo-terminal
# loads compinit with <fpath directory> first on $fpath; compadd is wrapped to print its matches,
# and NUL lines written before and after the completion widget mark where they start and end.
zmodload zsh/zpty || exit 3
zpty capture zsh -f -i || exit 3
zpty -w capture "fpath=(${(q)1} \$fpath); PROMPT=; autoload -U compinit; compinit -u -D"
zpty -w capture "bindkey '^I' complete-word"
zpty -w capture "null-line() { echo -E - \$'\\0' }; compprefuncs=(null-line); comppostfuncs=(null-line exit)"
zpty -w capture "zstyle ':completion:*' list-grouped false; zstyle ':completion:*' insert-tab false"
zpty -w capture 'compadd() {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
  local -a hits; local hit
  builtin compadd -A hits "$@"
  for hit in $hits; do echo -E - "<$hit>"; done
}'
zpty -w capture "$2"$'\t'
integer marks=0
local line
while zpty -r capture; do :; done | while IFS= read -r line; do
  if [[ $line == *$'\0\r' ]]; then
    (( marks++ )) && exit 0 || continue
  fi
  (( marks )) && echo -E - $line
done
exit 2
