// Start-up time: the modules every command loads must not pull in the table (display width),
// colour, CSV, YAML or progress bar libraries; only the code path that needs them may.
import { readdir, readFile } from 'node:fs/promises'
import { posix } from 'node:path'
import { describe, expect, it, vi } from 'vitest'

// How often jq's WebAssembly package was loaded (its module evaluated) in this file.
const jqWasm = vi.hoisted(() => ({ loads: 0 }))
vi.mock('jq-wasm', async (original) => {
  jqWasm.loads++
  return original()
})

const HEAVY = ['string-width', 'chalk', 'csv-stringify', 'cli-progress', 'yaml']
const STATIC_IMPORT = /^\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]/gm

async function staticImports(file: string): Promise<string[]> {
  const source = await readFile(new URL(`../../src/io/${file}`, import.meta.url), 'utf8')
  return [...source.matchAll(STATIC_IMPORT)].map((match) => match[1] as string)
}

describe('lazy loading', () => {
  it.each([
    'output.ts',
    'bulk-output.ts',
    'values.ts',
    'format.ts',
    'color.ts',
    'streams.ts',
    'wrap.ts',
  ])('%s has no static import of a heavy module', async (file) => {
    const imports = await staticImports(file)
    for (const name of imports) {
      expect(HEAVY.some((heavy) => name === heavy || name.startsWith(`${heavy}/`))).toBe(false)
    }
  })

  it('output.ts reaches the table module only through a dynamic import', async () => {
    const imports = await staticImports('output.ts')
    // The pattern does see static imports: output.ts has some.
    expect(imports).toContain('./values.js')
    expect(imports).not.toContain('./table.js')
    expect(imports).not.toContain('./record-view.js')
    expect(imports).not.toContain('./yaml-output.js')
  })
})

// The src/ files a module loads with it: its static imports that are not `import type`, and
// theirs, relative ones only.
async function loadedWith(file: string): Promise<Set<string>> {
  const loaded = new Set<string>()
  const visit = async (at: string): Promise<void> => {
    if (loaded.has(at)) return
    loaded.add(at)
    const source = await readFile(new URL(`../../src/${at}`, import.meta.url), 'utf8')
    for (const match of source.matchAll(STATIC_IMPORT)) {
      const name = match[1] as string
      if (/^\s*import\s+type\s/.test(match[0]) || !name.startsWith('.')) continue
      await visit(posix.join(posix.dirname(at), name).replace(/\.js$/, '.ts'))
    }
  }
  await visit(file)
  return loaded
}

describe('the create declarations', () => {
  it('a list does not load the create schemas: the descriptors reach them only when a create runs', async () => {
    const loaded = await loadedWith('api/resources/index.ts')
    // The walk does follow the descriptors' imports.
    expect(loaded).toContain('api/resources/chambers.ts')
    expect(loaded).toContain('api/resources/kinds.ts')
    expect(loaded).not.toContain('api/schemas.ts')
  })
})

describe('the OS keyring', () => {
  it('no module imports the keyring statically: only storing, reading or removing a secret loads it', async () => {
    const root = new URL('../../src/', import.meta.url)
    const files = (await readdir(root, { recursive: true })).filter((file) => file.endsWith('.ts'))
    const dynamic: string[] = []
    for (const file of files) {
      const source = await readFile(new URL(file, root), 'utf8')
      for (const [, name] of source.matchAll(STATIC_IMPORT)) {
        expect(name === '@napi-rs/keyring' || name?.endsWith('/keyring.js'), file).toBe(false)
      }
      if (/import\('@napi-rs\/keyring'\)/.test(source)) dynamic.push(file)
    }
    // The pattern does see the import it must not find statically.
    expect(dynamic).toEqual(['config/keyring.ts'])
  })
})

describe('jq', () => {
  it('a filter of the fast path runs without loading jq; an input it leaves to jq loads it', async () => {
    const { compileJq } = await import('../../src/io/jq.js')
    const program = await compileJq('.[0].id')
    expect(await program.run('[{"id":"ch_0001"}]')).toEqual({ lines: ['ch_0001'], stderr: '' })
    expect(jqWasm.loads).toBe(0)
    // jq's own error, from jq.
    const error = await program.run('{"id":"ch_0001"}')
    expect(error.stderr).toContain('Cannot index object with number')
    expect(program.failed).toBe(true)
    expect(jqWasm.loads).toBe(1)
  })
})
