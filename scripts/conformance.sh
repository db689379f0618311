#!/usr/bin/env bash
# The Prism conformance job (issue 9), run by .ci/run after the build:
#  1. Prism's dynamic mock of the spec's OpenAPI document (-d: every answer generated afresh):
#     every read command in every format, export, and the write commands with flags, on /v1
#     and /v2, ROUNDS rounds (default 20): zero failures.
#  2. Prism's validation proxy (--errors) in front of the sandbox, the same commands through it:
#     zero violations, so the sandbox's answers and our requests both match the document.
#  3. Through that proxy (and a second one, in front of a sandbox started with --fail-rate 1),
#     every route of the document with every status the sandbox serves for it
#     (scripts/conformance-statuses.mjs): each as expected, and no violation.
# Prism comes from the shared tools (../shared/tools/prism, or $CHAMBERCTL_PRISM_TOOLS), which
# install it into ~/.cache/chamberctl-prism when missing; each proxy is started through
# scripts/prism-proxy.sh, which gives it a document of its own (a proxy restarts when its
# document is written, as every start of another wrote it). Loopback ports: $CONFORMANCE_PORT and
# the four after it (default 4171..4175).
set -euo pipefail
cd "$(dirname "$0")/.."
tools="${CHAMBERCTL_PRISM_TOOLS:-$PWD/../shared/tools/prism}"
rounds="${CONFORMANCE_ROUNDS:-20}"
port="${CONFORMANCE_PORT:-4171}"
node="$PWD/node_modules/.bin/node"
logs=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$logs"
}
trap cleanup EXIT

# Waits until a server answers HTTP on the port (any status), for up to two minutes: the first
# run installs Prism.
wait_for() {
  for _ in $(seq 240); do
    if "$node" -e "fetch('http://127.0.0.1:$1/').then(()=>process.exit(0),()=>process.exit(1))"; then return 0; fi
    sleep 0.5
  done
  echo "nothing answers on port $1; log:" >&2
  cat "$2" >&2
  return 1
}

echo "== Prism dynamic mock (port $port): $rounds rounds"
"$tools/mock.sh" "$port" -d >"$logs/mock.log" 2>&1 &
pids+=($!)
wait_for "$port" "$logs/mock.log"
"$node" scripts/conformance-run.mjs "http://127.0.0.1:$port" "$rounds" chm_1

sandbox_port=$((port + 1))
proxy_port=$((port + 2))
failing_port=$((port + 3))
failing_proxy_port=$((port + 4))
echo "== Prism validation proxy (port $proxy_port) in front of the sandbox (port $sandbox_port)"
CHAMBERCTL_CONFIG_DIR="$logs/config" "$node" bin/chamberctl.cjs sandbox --port "$sandbox_port" \
  --data "$logs/sandbox.db" -q >"$logs/sandbox.log" 2>&1 &
pids+=($!)
scripts/prism-proxy.sh "http://127.0.0.1:$sandbox_port" "$proxy_port" >"$logs/proxy.log" 2>&1 &
pids+=($!)
# Started now so that Prism's start overlaps the runs below; used by step 3.
CHAMBERCTL_CONFIG_DIR="$logs/config-failing" "$node" bin/chamberctl.cjs sandbox --port "$failing_port" \
  --fail-rate 1 -q >"$logs/sandbox-failing.log" 2>&1 &
pids+=($!)
scripts/prism-proxy.sh "http://127.0.0.1:$failing_port" "$failing_proxy_port" >"$logs/proxy-failing.log" 2>&1 &
pids+=($!)
wait_for "$sandbox_port" "$logs/sandbox.log"
wait_for "$proxy_port" "$logs/proxy.log"
CHAMBERCTL_CLIENT_ID=sandbox-client CHAMBERCTL_CLIENT_SECRET=sandbox-secret \
  "$node" scripts/conformance-run.mjs "http://127.0.0.1:$proxy_port" "${CONFORMANCE_PROXY_ROUNDS:-1}" ch_0001
echo "== every route and status of the sandbox through Prism's proxy (--fail-rate 1: port $failing_proxy_port)"
wait_for "$failing_port" "$logs/sandbox-failing.log"
wait_for "$failing_proxy_port" "$logs/proxy-failing.log"
"$node" scripts/conformance-statuses.mjs "http://127.0.0.1:$proxy_port" "http://127.0.0.1:$failing_proxy_port"
echo "== the end-to-end tests, each file's sandbox behind a Prism validation proxy"
# npx: vitest under the project's Node (the sandbox needs node:sqlite).
mkdir -p "$logs/e2e"
CHAMBERCTL_TEST_PRISM_PROXY="$PWD/scripts/prism-proxy.sh" CHAMBERCTL_TEST_PRISM_LOGS="$logs/e2e" \
  npx vitest run test/e2e </dev/null

# Prism logs a broken request or answer as a violation or a request terminated with an error;
# left aside: the readiness probes' `GET /` (no path matches it) and answers whose status the
# document does not list (the spec leaves other failures' statuses open: the sandbox's 413 for
# an oversized body, which a test sends on purpose, and the 429, 500 and 503 of --fail-rate).
cat "$logs/proxy.log" "$logs/proxy-failing.log" "$logs"/e2e/*.log |
  grep -Ei 'violation|terminated with error' |
  grep -v '\] get / ' |
  grep -v 'Unable to match the returned status code' >"$logs/violations" || true
echo "prism proxy: $(wc -l <"$logs/violations") violations logged"
if [ -s "$logs/violations" ]; then
  head -20 "$logs/violations" >&2
  exit 1
fi
