// What an npm package's bin would be if it ran a per-platform binary (esbuild's layout without
// its install-time swap): start the binary with this process's arguments, pass its exit on. For
// the npm row of bench/run.mjs only (BENCH_ONLY=npm); argv[2] is the binary, where a published
// launcher would require.resolve() it from an optional dependency.
const { spawnSync } = require('node:child_process')

const [binary, ...args] = process.argv.slice(2)
const result = spawnSync(binary, args, { stdio: 'inherit' })
if (result.error) throw result.error
if (result.signal) process.kill(process.pid, result.signal)
process.exitCode = result.status
