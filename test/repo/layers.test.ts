// Imports run downward only: start-up (start: the launchers and the snapshot, which load the
// root) → the root (cli) → commands → cmdutil → sandbox → io / api / config → errors → util.
// io, api and config sit side by side and import none of each other. A test that fails on any
// import that runs back up, static or dynamic, and on any circle of imports inside a layer
// (help.ts ⇄ manual.ts was one), type-only imports included.
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join, normalize, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SRC = fileURLToPath(new URL('../../src/', import.meta.url))

const RANK: Record<string, number> = {
  start: -1,
  cli: 0,
  commands: 1,
  cmdutil: 2,
  sandbox: 3,
  io: 4,
  api: 4,
  config: 4,
  'errors.ts': 5,
  types: 5,
  'util.ts': 6,
  'v8-flags.ts': 6,
}

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) return sources(path)
      return Promise.resolve(/\.ts$/.test(entry.name) ? [path] : [])
    }),
  )
  return nested.flat()
}

function layerOf(path: string): string {
  // Specifiers name the compiled .js file; the layer is the same.
  const first = (relative(SRC, path).split('/')[0] ?? '').replace(/\.js$/, '.ts')
  if (!(first in RANK)) throw new Error(`${relative(SRC, path)} is in no layer`)
  return first
}

// Every relative specifier: `from '…'`, `import('…')`, `import '…'`.
const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1/g

// Every relative import of every module, static or dynamic, by path under src/ (`cli/help.ts`).
async function importGraph(): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>()
  for (const file of await sources(SRC)) {
    const text = await readFile(file, 'utf8')
    const targets = [...text.matchAll(SPECIFIER)].map((match) =>
      normalize(join(dirname(file), (match[2] ?? '').replace(/\.js$/, '.ts'))),
    )
    graph.set(relative(SRC, file), [...new Set(targets.map((target) => relative(SRC, target)))])
  }
  return graph
}

function upwardImports(graph: Map<string, string[]>): string[] {
  const found: string[] = []
  for (const [file, targets] of graph) {
    const from = layerOf(join(SRC, file))
    for (const target of targets) {
      const to = layerOf(join(SRC, target))
      if (to === from) continue
      const upward = RANK[to]! < RANK[from]!
      const sideways = RANK[to] === RANK[from]
      if (upward || sideways) found.push(`${file} → ${target}`)
    }
  }
  return found
}

// Circles in a graph, as `a → b → a` from their first module in sorted order: a depth-first walk
// that meets a module still on its path has closed one. Every knot of modules that reach each
// other yields at least one, so an empty list means there is none.
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found = new Set<string>()
  const done = new Set<string>()
  const path: string[] = []
  const visit = (node: string): void => {
    const at = path.indexOf(node)
    if (at >= 0) {
      const loop = path.slice(at)
      const first = loop.indexOf([...loop].sort()[0]!)
      const turned = [...loop.slice(first), ...loop.slice(0, first)]
      found.add([...turned, turned[0]].join(' → '))
      return
    }
    if (done.has(node)) return
    path.push(node)
    for (const next of graph.get(node) ?? []) visit(next)
    path.pop()
    done.add(node)
  }
  for (const node of [...graph.keys()].sort()) visit(node)
  return [...found].sort()
}

describe('the layers of src/', () => {
  it('import only downward: no module imports from its own layer’s neighbours or above', async () => {
    expect(upwardImports(await importGraph())).toEqual([])
  })

  it('import in no circle, also inside one folder', async () => {
    expect(circles(await importGraph())).toEqual([])
  })

  it('keep commands/ to noun folders: the kit lives in cmdutil/', async () => {
    const loose = (await readdir(join(SRC, 'commands'), { withFileTypes: true }))
      .filter((entry) => !entry.isDirectory())
      .map((entry) => entry.name)
    expect(loose).toEqual([])
  })
})

describe('circles', () => {
  it('finds a circle inside a folder, and each circle once', () => {
    const graph = new Map([
      ['cli/help.ts', ['cli/manual.ts', 'errors.ts']],
      ['cli/manual.ts', ['cli/tree.ts', 'cli/help.ts']],
      ['cli/tree.ts', []],
      ['io/a.ts', ['io/b.ts']],
      ['io/b.ts', ['io/c.ts']],
      ['io/c.ts', ['io/a.ts']],
      ['errors.ts', []],
    ])
    expect(circles(graph)).toEqual([
      'cli/help.ts → cli/manual.ts → cli/help.ts',
      'io/a.ts → io/b.ts → io/c.ts → io/a.ts',
    ])
  })

  it('finds none in a graph that only runs downward', () => {
    const graph = new Map([
      ['cli/help.ts', ['cli/tree.ts', 'errors.ts']],
      ['cli/manual.ts', ['cli/tree.ts']],
      ['cli/tree.ts', ['errors.ts']],
      ['errors.ts', []],
    ])
    expect(circles(graph)).toEqual([])
  })
})
