#!/usr/bin/env bash
# Prism's validation proxy (the shared tools' proxy.sh, from CHAMBERCTL_PRISM_TOOLS or
# ../shared/tools/prism) serving a document of its own; the arguments are proxy.sh's:
#   scripts/prism-proxy.sh UPSTREAM_ROOT_URL PORT
# proxy.sh writes the document Prism serves anew into the tools' directory at every start, and a
# running Prism restarts when its document changes, dropping the requests it holds: a proxy
# started beside another (vitest's parallel files, conformance.sh's two proxies) made the other's
# client wait for an answer that never came. Here each proxy gets a directory of its own, which
# shares the one installation of Prism (installed first when missing) and holds its own document.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tools="${CHAMBERCTL_PRISM_TOOLS:-$root/../shared/tools/prism}"
cache="${PRISM_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/chamberctl-prism}"
if [ ! -f "$cache/node_modules/@stoplight/prism-cli/dist/index.js" ]; then
  # shellcheck source=/dev/null
  (PRISM_TOOLS_DIR="$cache" && source "$tools/tools.sh")
fi
own=$(mktemp -d)
ln -s "$cache/node_modules" "$own/node_modules"
child=
# Under set -e a failing last command of an && list ends the trap: `wait` returns the status of
# the child killed here (143), so every check is guarded and the directory always goes.
stop() {
  if [ -n "$child" ]; then
    kill "$child" 2>/dev/null || true
    wait "$child" 2>/dev/null || true
  fi
  rm -rf "$own"
}
trap stop EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
PRISM_TOOLS_DIR="$own" "$tools/proxy.sh" "$@" &
child=$!
wait "$child"
