// V8 settings that keep a long read's memory flat, set while the process runs (V8 reads each
// time it acts on it). Whatever is still set when the process ends is put back to V8's
// default before any other 'exit' listener runs: the code cache written at exit
// (src/start/code-cache.ts) must carry the flags it was read with, for V8 rejects a cache made
// under other flags. test/v8-flags.test.ts checks these defaults against each Node line's own.
// Like util.ts, this module imports nothing, so every layer may call it.
export const V8_DEFAULTS = {
  'semi-space-growth-factor': 2,
  'heap-growing-percent': 0,
  'wasm-tier-up-filter': -1,
} as const

type Flag = keyof typeof V8_DEFAULTS
type V8 = { setFlagsFromString(flags: string): void }
let v8: V8 | undefined

function setFlag(flag: Flag, value: number): void {
  if (!v8) {
    v8 = process.getBuiltinModule('node:v8') as V8
    process.prependOnceListener('exit', () => {
      for (const [name, value] of Object.entries(V8_DEFAULTS)) setFlag(name as Flag, value)
    })
  }
  v8.setFlagsFromString(`--${flag}=${value}`)
}

// A long read (pages of a list, a fixture a chamber at a time) makes garbage that dies young,
// and keeps a page or two alive across each collection of the young generation. V8 widens the
// young generation whenever the bytes that survived add up to its size, doubling it each time:
// over a million records it grows from 1 to 16 MiB a semi-space and stays there, though no more
// is ever alive than at the start. While a long read runs, the young generation keeps the size it
// has (--semi-space-growth-factor=1), and the old one grows by a tenth past what its last full
// collection left alive (--heap-growing-percent=10, where V8 would let it grow by half or more):
// what a small young generation promotes is collected soon after. Both come back to V8's
// defaults when the last long read ends.
//
// V8 still lets the old generation grow 8 MiB past what is alive before it collects it (its
// least step, which no flag changes while the process runs), and the buffers the network and the
// file were read into are given back only when a full collection frees them. So while long reads
// run, a full collection is asked for every COLLECT_EVERY_MS. At a million members `report
// members` peaked at 80-82 MiB where it took 95-97, `export --members` at 87-92 where it took
// 96-103, for 7% and 15% more CPU (bench/README.md). A read shorter than that asks for none.
let reads = 0
const COLLECT_EVERY_MS = 250
let collecting: ReturnType<typeof setInterval> | undefined
let collect: ((options: { type: 'major'; execution: 'async' }) => unknown) | undefined

// Held until the function returned is called; long reads may overlap.
export function holdHeapFlat(): () => void {
  if (reads++ === 0) {
    setFlag('semi-space-growth-factor', 1)
    setFlag('heap-growing-percent', 10)
    // Kept over the gaps between reads (one chamber's members, then the next's): it stops at
    // its first turn with no read held. Unref'd: it never keeps the process alive.
    collecting ??= setInterval(() => {
      if (reads > 0) return void (collect ??= exposedGc())(FULL)
      clearInterval(collecting)
      collecting = undefined
    }, COLLECT_EVERY_MS).unref()
  }
  let released = false
  return () => {
    if (released) return
    released = true
    if (--reads > 0) return
    setFlag('semi-space-growth-factor', V8_DEFAULTS['semi-space-growth-factor'])
    setFlag('heap-growing-percent', V8_DEFAULTS['heap-growing-percent'])
  }
}

const FULL = { type: 'major', execution: 'async' } as const

// V8's gc(), which it gives only to a context made while --expose-gc is set: set for as long as
// it takes to make one, so that no flag differs after (a code cache would be rejected).
function exposedGc(): NonNullable<typeof collect> {
  v8!.setFlagsFromString('--expose-gc')
  try {
    const vm = process.getBuiltinModule('node:vm') as { runInNewContext(code: string): unknown }
    return vm.runInNewContext('gc') as NonNullable<typeof collect>
  } finally {
    v8!.setFlagsFromString('--no-expose-gc')
  }
}

// undici parses HTTP with llhttp, in WebAssembly, which V8 compiles with its baseline compiler,
// then the functions that run most again with its optimizing one: llhttp's parser after some 30
// pages, with 24 MiB of compile memory at its peak, for parsing that is under 1% of a list's CPU
// (5,000 pages took the same CPU either way). V8 decides whether a function may be optimized when
// it first compiles it, so the decision is made at undici's first connection, before the parser
// first runs: from then on no WebAssembly function compiled is optimized (--wasm-tier-up-filter
// naming none), until the process ends or jq is loaded. jq's WebAssembly gains from it (a filter
// over 100k records: 5.0 s of CPU, 5.8-7.4 s unoptimized); llhttp's, compiled by then, stays.
let tierUp: 'allowed' | 'held' | undefined

export function holdWasmBaseline(): void {
  if (tierUp !== undefined) return
  tierUp = 'held'
  setFlag('wasm-tier-up-filter', 2 ** 31 - 1)
}

export function allowWasmTierUp(): void {
  if (tierUp === 'held') setFlag('wasm-tier-up-filter', V8_DEFAULTS['wasm-tier-up-filter'])
  tierUp = 'allowed'
}
