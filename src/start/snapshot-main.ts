// The main script of the single executable built for the build machine's own platform
// (scripts/release/package.mjs), which carries a V8 startup snapshot. Every start deserializes the
// whole snapshot, `--version` too, at a cost that grows with what it holds: so it holds only what
// the warm-up of src/start/snapshot.ts loads (the command line, a request, its output), and the
// rest of the CLI (the sandbox, prompts, bulk runs, YAML, CSV, jq, the manual) waits in the
// executable until a command needs it.
//
// The CLI comes split in chunks by esbuild (code splitting), each a CommonJS function in an asset
// of its own, with its source map beside it. While the snapshot is made, a chunk is read from the
// build's directory (CHAMBERCTL_SNAPSHOT_CHUNKS) and run, so that the chunks the warm-up loads are
// in the snapshot; at run time, a chunk the snapshot does not hold is read from the executable the
// first time one of its modules is imported.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import v8 from 'node:v8'

type Module = { exports: object }
type Chunk = (
  exports: object,
  require: (id: string) => unknown,
  module: Module,
  filename: string,
  dirname: string,
) => void

const loaded = new Map<string, Module>()

function load(name: string): object {
  const known = loaded.get(name)
  if (known) return known.exports
  const module: Module = { exports: {} }
  // Before it runs, as Node's require() does, for the chunks that import it back.
  loaded.set(name, module)
  // The bundle's import.meta.url, as beside the npm package's bundle.
  const filename = path.join(path.dirname(process.execPath), name)
  try {
    compile(name)(module.exports, requireFromChunk, module, filename, path.dirname(filename))
  } catch (error) {
    // Not left half-loaded for a later import to find.
    loaded.delete(name)
    throw error
  }
  return module.exports
}

// What a chunk imports: other chunks (`./chunk-….cjs`), and Node's own modules.
function requireFromChunk(id: string): unknown {
  if (id.startsWith('./')) return load(id.slice(2))
  const builtin: unknown = process.getBuiltinModule(id)
  if (builtin === undefined) throw new Error(`no module ${id} in the single executable`)
  return builtin
}

// The build's directory of chunks, while the snapshot is made.
const chunksDir = () => process.env.CHAMBERCTL_SNAPSHOT_CHUNKS ?? ''

// Both ways name the chunk as its asset is named: its stack frames go by that name, and --debug
// finds the source map asset by it (src/io/stack.ts).
function compile(name: string): Chunk {
  if (v8.startupSnapshot.isBuildingSnapshot()) {
    // An indirect eval: node:vm warns on stderr when loaded while a snapshot is made, and a write
    // then would be replayed by every run.
    return (0, eval)(
      `${readFileSync(path.join(chunksDir(), name), 'latin1')}\n//# sourceURL=${name}`,
    )
  }
  const { getAsset } = process.getBuiltinModule('node:sea')
  const { Script } = process.getBuiltinModule('node:vm')
  return new Script(getAsset(name, 'utf8'), { filename: name }).runInThisContext() as Chunk
}

if (v8.startupSnapshot.isBuildingSnapshot()) {
  // Which chunks and which of Node's modules the snapshot holds, for the packaging to check and
  // report (Node's list of what it loaded is not a documented API: none is no check).
  const { moduleLoadList = [] } = process as { moduleLoadList?: string[] }
  v8.startupSnapshot.addSerializeCallback(() => {
    writeFileSync(
      path.join(chunksDir(), 'in-snapshot.json'),
      JSON.stringify({ chunks: [...loaded.keys()], builtins: moduleLoadList }),
    )
  })
}
load('snapshot.cjs')
