// Start-up time: the modules every command loads must not pull in the table (display width),
// colour, CSV or progress bar libraries; only the code path that needs them may.
import { readdir, readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'

const HEAVY = ['string-width', 'chalk', 'csv-stringify', 'cli-progress']
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
