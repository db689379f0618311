#!/usr/bin/env bash
# The release rehearsed as users receive it, against the release/ that `npm run release` wrote
# (.ci/run calls it; RELEASING.md says what each step stands for). Fails at the first thing that
# does not work:
#   - SHA256SUMS checks, and no file, nor anything inside an archive, package or executable, names
#     the build directory or $HOME;
#   - a fresh clone's `npm pack` gives the release's tarball, byte for byte, which installs into an
#     empty prefix and runs (--version, chambers list --sandbox, man finds its page), and on a
#     system Node older than 22.13 says so in one line;
#   - the tarball published to a local registry (verdaccio on 127.0.0.1) installs from it with npm
#     and with pnpm (install scripts off, its default) and runs;
#   - the .deb installs with dpkg -i and runs, man finds its page, bash completes from the
#     installed script, and dpkg -r leaves none of its files (root only; CI is root);
#   - the Scoop and WinGet manifests validate against their published schemas (../shared/schemas),
#     the Homebrew formula passes ruby -c, the release workflow passes action-validator;
#   - the linux archives' executables: the end-to-end suite against linux-amd64's, with no Node on
#     PATH, and linux-arm64's smoke test under qemu-user where it is installed.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
project_node="$root/node_modules/.bin/node"
version=$("$project_node" -p 'require("./package.json").version')
# Installed commands run on the project's Node (the system's may be older than 22.13).
system_node=$(command -v node || true)
export PATH="$root/node_modules/.bin:$PATH"
work=$(mktemp -d)
registry_pid=
cleanup() {
  if [ -n "$registry_pid" ]; then kill "$registry_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
step() { printf '\n== rehearse: %s\n' "$*"; }
fail() {
  echo "rehearse: $*" >&2
  exit 1
}
[ -f release/SHA256SUMS ] || fail "no release/SHA256SUMS: run npm run release first"

step "SHA256SUMS, and no build path in any file"
(cd release && sha256sum --quiet -c SHA256SUMS)
listed=$(cut -c67- release/SHA256SUMS | sort)
present=$(cd release && ls | grep -vx SHA256SUMS | sort)
[ "$listed" = "$present" ] || fail "SHA256SUMS does not list every file of release/"
unpacked="$work/unpacked"
for file in release/*; do
  name=$(basename "$file")
  into="$unpacked/$name"
  mkdir -p "$into"
  case $name in
    *.tar.gz | *.tgz) tar -xzf "$file" -C "$into" ;;
    *.zip) unzip -q "$file" -d "$into" ;;
    *.deb) dpkg-deb -R "$file" "$into" ;;
    *.rpm) rpm2archive - <"$file" | tar -xzf - -C "$into" ;;
  esac
done
# The files as released, and what is inside them; $HOME/ with its slash (a bare /root is common).
if found=$(grep -rlaF -e "$root" -e "$HOME/" release "$unpacked"); then
  fail "build paths ($root or $HOME/) in: ${found//$'\n'/, }"
fi
echo "$(find release "$unpacked" -type f | wc -l) files, none names $root or $HOME/"

runs() { # runs LABEL COMMAND…: --version prints the version, the sandbox lists chambers
  local said
  said=$("$@" --version)
  [ "$said" = "$version" ] || fail "$1 --version printed '$said'"
  said=$("$@" chambers list --sandbox)
  [ -n "$said" ] || fail "$1 chambers list --sandbox printed nothing"
  echo "$1 runs: --version $version, chambers list --sandbox $(wc -l <<<"$said") lines"
}

step "a fresh clone's npm pack installs and runs"
clone="$work/clone"
git clone -q "$root" "$clone"
# The lockfile's packages as installed here (the clone has no dist/: that is what it tests).
cp -al "$root/node_modules" "$clone/node_modules"
tarball=$(cd "$clone" && npm pack --silent --pack-destination "$work" | tail -n 1)
cmp "$work/$tarball" "release/$tarball" || fail "the clone's $tarball differs from release/'s"
prefix="$work/npm-prefix"
npm install -g --no-audit --no-fund --prefix "$prefix" "$work/$tarball" >/dev/null
runs "$prefix/bin/chamberctl"
# On a Node older than 22.13 (the system's, where it is one) it says so in one line, exit 1.
old=$("$system_node" --version 2>/dev/null || true)
if "$system_node" -e 'const [a, b] = process.versions.node.split(".").map(Number)
process.exit(a < 22 || (a === 22 && b < 13) ? 0 : 1)' 2>/dev/null; then
  set +e
  said=$(PATH="$(dirname "$system_node"):$PATH" "$prefix/bin/chamberctl" --version 2>&1)
  code=$?
  set -e
  [ "$code" = 1 ] && [ "$said" = "chamberctl needs Node 22.13 or newer; this is ${old#v}" ] ||
    fail "on Node $old the installed chamberctl exited $code and printed: $said"
  echo "on Node $old: $said"
fi
page=$(MANPATH="$prefix/share/man" man -w chamberctl)
[[ $page == "$prefix"/* ]] || fail "man -w chamberctl found '$page', not the installed page"
echo "man chamberctl: $page"

step "published to a local registry, installed with npm and with pnpm"
port=$("$project_node" -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close() })')
registry="http://127.0.0.1:$port/"
upstream=$(npm config get registry)
mkdir -p "$work/registry"
cat >"$work/registry/config.yaml" <<EOF
storage: ./storage
auth:
  htpasswd:
    file: ./htpasswd
uplinks:
  upstream:
    url: $upstream
packages:
  chamberctl:
    access: \$all
    publish: \$authenticated
  '**':
    access: \$all
    proxy: upstream
listen: 127.0.0.1:$port
log: { type: stdout, format: pretty, level: warn }
EOF
verdaccio --config "$work/registry/config.yaml" >"$work/registry/log" 2>&1 &
registry_pid=$!
for _ in $(seq 100); do
  curl -sf "${registry}-/ping" >/dev/null && break
  kill -0 "$registry_pid" 2>/dev/null || { cat "$work/registry/log" >&2; fail "verdaccio exited"; }
  sleep 0.2
done
token=$(curl -sf -X PUT -H 'content-type: application/json' \
  -d '{"name":"rehearsal","password":"rehearsal-only"}' \
  "${registry}-/user/org.couchdb.user:rehearsal" | "$project_node" -p 'JSON.parse(require("fs").readFileSync(0)).token')
npmrc="$work/registry/npmrc"
printf '//127.0.0.1:%s/:_authToken=%s\n' "$port" "$token" >"$npmrc"
npm publish --userconfig "$npmrc" --registry "$registry" --ignore-scripts --loglevel=error "./release/$tarball" >/dev/null
npm install -g --userconfig "$npmrc" --registry "$registry" --cache "$work/npm-cache" \
  --no-audit --no-fund --prefix "$work/registry-npm" "chamberctl@$version" >/dev/null
runs "$work/registry-npm/bin/chamberctl"
mkdir -p "$work/registry-pnpm"
(cd "$work/registry-pnpm" && echo '{"private":true}' >package.json &&
  pnpm add --registry "$registry" --store-dir "$work/pnpm-store" "chamberctl@$version" >/dev/null)
runs "$work/registry-pnpm/node_modules/.bin/chamberctl"

step "the .deb: dpkg -i, run, man, bash completion, dpkg -r"
deb="release/chamberctl_${version}_amd64.deb"
if [ "$(id -u)" != 0 ]; then
  [ -z "${CI:-}" ] || fail "dpkg -i needs root"
  echo "warning: not root, the .deb is not installed" >&2
else
  ! dpkg -s chamberctl >/dev/null 2>&1 || fail "chamberctl is installed already: dpkg -r it first"
  dpkg -i "$deb" >/dev/null
  runs /usr/bin/chamberctl
  page=$(man -w chamberctl)
  [ "$page" = /usr/share/man/man1/chamberctl.1.gz ] || fail "man -w chamberctl found '$page'"
  echo "man chamberctl: $page"
  # As bash-completion loads it on the first Tab: from its completions directory, by name.
  completed=$(bash --norc --noprofile -c '
    source /usr/share/bash-completion/bash_completion
    _completion_loader chamberctl
    COMP_WORDS=(chamberctl cham) COMP_CWORD=1 COMP_LINE="chamberctl cham" COMP_POINT=15
    fn=$(complete -p chamberctl) && fn=${fn##*-F } && "${fn%% *}" chamberctl cham chamberctl
    printf "%s\n" "${COMPREPLY[@]}"')
  [ "$completed" = chambers ] || fail "bash completed 'chamberctl cham' to '$completed'"
  echo "bash: chamberctl cham<Tab> -> $completed"
  files=$(dpkg -L chamberctl | while read -r f; do [ -f "$f" ] && echo "$f"; done)
  dpkg -r chamberctl >/dev/null
  for f in $files; do [ ! -e "$f" ] || fail "dpkg -r left $f"; done
  ! dpkg -s chamberctl >/dev/null 2>&1 || fail "chamberctl is still installed after dpkg -r"
  echo "dpkg -r removed all $(echo "$files" | wc -l) files"
fi

step "manifests: Scoop and WinGet against their schemas, the formula, the workflow"
"$project_node" scripts/release/check-manifests.mjs ../shared/schemas release
ruby -c release/chamberctl.rb
action-validator .github/workflows/release.yml
echo ".github/workflows/release.yml: valid"

# The linux archives' executables, as a user unpacks them.
amd64="$unpacked/chamberctl_${version}_linux_amd64.tar.gz/chamberctl"
arm64="$unpacked/chamberctl_${version}_linux_arm64.tar.gz/chamberctl"
smoke=()
if command -v qemu-aarch64 >/dev/null && [ -e /usr/aarch64-linux-gnu/lib/libatomic.so.1 ]; then
  smoke=(CHAMBERCTL_SMOKE_BINARY="$arm64"
    "CHAMBERCTL_SMOKE_RUNNER=qemu-aarch64 -L /usr/aarch64-linux-gnu")
else
  echo "warning: no qemu-aarch64 with arm64 libraries; the linux-arm64 smoke test is skipped" >&2
fi
step "e2e against the linux_amd64 archive's chamberctl, no Node on PATH${smoke:+, the linux_arm64 one under qemu}"
env "${smoke[@]}" scripts/release/e2e-binary.sh "$amd64"
