// --jq (contract §1): jq itself, the WebAssembly build of jq 1.8 that jq-wasm ships, so that
// filters behave exactly as with the jq binary. Loaded only when --jq is given.
//
// jq-wasm runs jq's main() once per call, compiling the filter each time (a few milliseconds),
// so records are handed over in batches: jq reading several JSON texts runs the filter once per
// text, which is what `-o ndjson | jq` would do.
//
// Compiling jq's WebAssembly costs a process more than its request: the paths scripts use most
// (`.[0].id`, `.[].email`, `map(.id)`) are answered without it, exactly as jq would (jq-path.ts);
// jq is loaded only for another filter, or for an input the fast path leaves to it.
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { Jq } from 'jq-wasm'
import { CliError, ExitCode, UsageError } from '../errors.js'
import { allowWasmTierUp } from '../v8-flags.js'
import { pathFilter, runPath } from './jq-path.js'
import { escapeForTerminal, escapeJsonForTerminal } from './terminal-text.js'

// Set by the build, which copies jq.wasm beside the bundle; the sources read it from the package.
declare const __CHAMBERCTL_JQ_WASM__: string | undefined

export type JqResult = {
  // What jq printed, one line per output value, strings raw (gh's rule: jq -r, compact JSON).
  lines: string[]
  // jq's own messages: runtime errors, and what `debug` and `stderr` print.
  stderr: string
}

export type JqProgram = {
  expression: string
  // Runs the filter over every JSON text in `input` (one or more, whitespace-separated); with
  // `terminal`, the lines are escaped for one (terminal-text.ts).
  run(input: string, terminal?: boolean): Promise<JqResult>
  // Whether any run ended in a jq error; the command then exits 1, as jq would fail.
  readonly failed: boolean
}

// Compiles the expression before anything is sent: jq over no input compiles and runs nothing. A
// filter of the fast path is one jq compiles, and jq is loaded when the first input needs it.
export async function compileJq(expression: string): Promise<JqProgram> {
  const path = pathFilter(expression)
  let jq = path ? undefined : await loadChecked(expression)
  let failed = false
  return {
    expression,
    get failed() {
      return failed
    },
    async run(input, terminal = false) {
      let stdout = path && runPath(path, input)
      let stderr = ''
      if (stdout === undefined) {
        jq ??= await loadChecked(expression)
        const result = runJq(jq, input, expression)
        // The jq binary's status tells only of the last input; an error on any record counts.
        if (result.exitCode !== 0 || /^jq: error/m.test(result.stderr)) failed = true
        ;({ stdout, stderr } = result)
      }
      return {
        lines: stdout === '' ? [] : stdout.split('\n').map((l) => shown(l, terminal)),
        stderr,
      }
    },
  }
}

// jq, with the expression compiled once to check it.
async function loadChecked(expression: string): Promise<Jq> {
  allowWasmTierUp()
  const { loadJq } = await import('jq-wasm')
  const jq = await loadJq({ wasmBinary: await wasmBinary() })
  const check = runJq(jq, '', expression)
  if (check.exitCode !== 0) {
    throw new UsageError(`--jq: ${check.stderr || `jq exited with status ${check.exitCode}`}`)
  }
  return jq
}

// The code of the error a run of jq that ran out of memory ends with: a list's writer adds its way
// out (jq-output.ts).
export const JQ_OUT_OF_MEMORY = 'jq_out_of_memory'
// The most memory jq-wasm's build may grow to (its getHeapMax).
const JQ_MEMORY = '256 MiB'

// jq.raw, with its failures said in one line of ours. jq-wasm's WebAssembly aborts when jq runs
// out of memory (jq calls abort(), emscripten throws a RuntimeError `Aborted(). Build with
// -sASSERTIONS for more info.`), and traps on a stack jq overflows (`memory access out of
// bounds`). Before it throws, emscripten prints `Aborted()` with console.error (jq-wasm's
// printErr, which loadJq offers no way to replace): the run is synchronous, so console.error is
// silenced for exactly its length. jq's own messages do not pass there: they come back in
// `stderr`.
/* eslint-disable no-console -- jq-wasm's printErr, silenced around one synchronous run */
function runJq(jq: Jq, input: string, expression: string): ReturnType<Jq['raw']> {
  const printErr = console.error
  console.error = () => {}
  try {
    return jq.raw(input, expression, ['-c'])
  } catch (error) {
    throw jqFailure(error)
  } finally {
    console.error = printErr
  }
}
/* eslint-enable no-console */

function jqFailure(error: unknown): unknown {
  if (!(error instanceof Error)) return error
  // jq-wasm decodes all jq printed into one string, which V8 caps at about 512 MiB.
  if ((error as NodeJS.ErrnoException).code === 'ERR_STRING_TOO_LONG') {
    return new CliError(
      `--jq: jq's output is larger than 512 MiB, the most one run of jq hands back`,
    )
  }
  // WebAssembly.RuntimeError, which the project's type libraries do not declare.
  if (error.name !== 'RuntimeError') return error
  // abort() with no reason: jq's answer to a failed allocation (jv_alloc.c, memory_exhausted).
  if (error.message.startsWith('Aborted()')) {
    return new CliError(
      `--jq: jq ran out of memory (jq's WebAssembly build has ${JQ_MEMORY})`,
      ExitCode.failure,
      JQ_OUT_OF_MEMORY,
    )
  }
  const reason = error.message.replace(/\. Build with -sASSERTIONS for more info\.$/, '')
  return new CliError(`--jq: jq failed inside its WebAssembly build: ${reason}`)
}

// -c puts every value on one line; a string line is printed as its text, like jq -r. On a
// terminal a string keeps its line breaks and tabs, as jq -r would show them.
function shown(line: string, terminal: boolean): string {
  if (!line.startsWith('"')) return terminal ? escapeJsonForTerminal(line) : line
  const text = JSON.parse(line) as string
  return terminal ? escapeForTerminal(text, '\n\t') : text
}

// A single executable carries jq.wasm as an asset; the bundle (one CommonJS file) has it beside
// itself.
async function wasmBinary(): Promise<ArrayBuffer | Buffer> {
  const sea = process.getBuiltinModule('node:sea')
  if (sea.isSea()) return sea.getRawAsset('jq.wasm')
  return readFile(
    typeof __CHAMBERCTL_JQ_WASM__ === 'string'
      ? new URL(__CHAMBERCTL_JQ_WASM__, import.meta.url)
      : createRequire(import.meta.url).resolve('jq-wasm/jq.wasm'),
  )
}
