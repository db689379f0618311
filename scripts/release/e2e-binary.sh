#!/usr/bin/env bash
# The end-to-end tests (test/e2e) against a single executable instead of the npm bin, with no Node
# on PATH: PATH becomes one directory of links to every program on it but `node`. The tests
# themselves run on the project's Node, started by its path.
# Usage: scripts/release/e2e-binary.sh BINARY [vitest arguments…]
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=$(realpath "$1")
shift
project_node="$PWD/node_modules/.bin/node"
[ -x "$binary" ] || { echo "no executable $binary (npm run package builds it)" >&2; exit 2; }

bare=$(mktemp -d)
trap 'rm -rf "$bare"' EXIT
IFS=: read -ra dirs <<<"$PATH"
for dir in "${dirs[@]}"; do
  # The first of a name on PATH wins, as it does for the shell (ln refuses to replace a link).
  [ -d "$dir" ] && find "$dir" -maxdepth 1 \( -type f -o -type l \) -executable \
    ! -name node ! -name nodejs -exec ln -s -t "$bare" {} + 2>/dev/null || true
done
if PATH=$bare command -v node >/dev/null; then
  echo "node is still on the test PATH" >&2
  exit 1
fi

echo "e2e against $binary ($("$binary" --version)), PATH without node"
PATH=$bare CHAMBERCTL_E2E_BINARY=$binary "$project_node" node_modules/vitest/vitest.mjs run test/e2e "$@" </dev/null
