// Imports run downward only: start-up (start: the launchers and the snapshot, which load the
// root) → the root (cli) → commands → cmdutil → sandbox → io / api / config → errors → util.
// io, api and config sit side by side and import none of each other. A test that fails on
// any import that runs back up, static or dynamic, so the house keeps no circle.
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

async function upwardImports(): Promise<string[]> {
  const found: string[] = []
  for (const file of await sources(SRC)) {
    const text = await readFile(file, 'utf8')
    const from = layerOf(file)
    for (const match of text.matchAll(SPECIFIER)) {
      const target = normalize(join(dirname(file), match[2] ?? ''))
      const to = layerOf(target)
      if (to === from) continue
      const upward = RANK[to]! < RANK[from]!
      const sideways = RANK[to] === RANK[from]
      if (upward || sideways) found.push(`${relative(SRC, file)} → ${relative(SRC, target)}`)
    }
  }
  return found
}

describe('the layers of src/', () => {
  it('import only downward: no module imports from its own layer’s neighbours or above', async () => {
    expect(await upwardImports()).toEqual([])
  })

  it('keep commands/ to noun folders: the kit lives in cmdutil/', async () => {
    const loose = (await readdir(join(SRC, 'commands'), { withFileTypes: true }))
      .filter((entry) => !entry.isDirectory())
      .map((entry) => entry.name)
    expect(loose).toEqual([])
  })
})
