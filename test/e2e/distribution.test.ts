// What the npm package ships besides the code: the licence, the notices of every package bundled
// into dist/ (each with its licence text), and the bundle's source map without the sources' text.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT, TESTING_BINARY } from '../helpers/run-cli.js'
// @ts-expect-error: a plain ESM script without type declarations
import { assertAscii } from '../../scripts/release/bundle.mjs'

const dist = (file: string) => path.join(ROOT, 'dist', file)
const RULE = '='.repeat(78)

// `name@version (licence)` headings, each followed by its text.
function notices(text: string): Map<string, string> {
  const parts = text.split(`\n${RULE}\n`)
  const entries = new Map<string, string>()
  for (let i = 1; i + 1 < parts.length; i += 2) entries.set(parts[i]!, parts[i + 1]!.trim())
  return entries
}

describe.skipIf(TESTING_BINARY)('the npm package', () => {
  it('names every package in the bundle in its notices, each with its licence text', () => {
    const map = JSON.parse(readFileSync(dist('chamberctl.cjs.map'), 'utf8')) as {
      sources: string[]
      sourcesContent?: unknown
    }
    // The source map is the build's other record of what went into the bundle.
    const bundled = new Set<string>()
    for (const source of map.sources) {
      const found = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(source)
      if (found) {
        const pkg = path.join(ROOT, 'dist', source.slice(0, found.index + found[0].length))
        const { name, version } = JSON.parse(readFileSync(`${pkg}package.json`, 'utf8')) as {
          name: string
          version: string
        }
        bundled.add(`${name}@${version}`)
      }
    }
    expect(bundled).toContain(`undici@${packageVersion('undici')}`)
    expect(bundled).toContain(`commander@${packageVersion('commander')}`)

    const entries = notices(readFileSync(dist('THIRD-PARTY-NOTICES.txt'), 'utf8'))
    const named = new Set([...entries.keys()].map((title) => title.replace(/ \(.*\)$/, '')))
    expect(named).toEqual(bundled)
    for (const [title, text] of entries) {
      expect(title).toMatch(/ \((MIT|ISC|Apache-2\.0|BSD-[23]-Clause|MPL-2\.0|BlueOak-1\.0\.0)\)$/)
      expect(text.length, title).toBeGreaterThan(100)
    }
    const undici = entries.get(`undici@${packageVersion('undici')} (MIT)`)
    expect(undici).toBe(readFileSync(path.join(ROOT, 'node_modules/undici/LICENSE'), 'utf8').trim())
  })

  it('links its source map, which leaves out the sources themselves', () => {
    const bundle = readFileSync(dist('chamberctl.cjs'), 'utf8')
    expect(bundle.trimEnd().split('\n').pop()).toBe('//# sourceMappingURL=chamberctl.cjs.map')
    const map = JSON.parse(readFileSync(dist('chamberctl.cjs.map'), 'utf8')) as object
    expect(map).not.toHaveProperty('sourcesContent')
  })

  it("names its sources by their path in the project, never the build machine's", () => {
    const text = readFileSync(dist('chamberctl.cjs.map'), 'utf8')
    expect(text.includes(ROOT), `the source map names ${ROOT}`).toBe(false)
    const { sources } = JSON.parse(text) as { sources: string[] }
    const absolute = sources.filter((source) => /^([a-z-]+:)?(\/|[A-Za-z]:\\)/.test(source))
    expect(absolute).toEqual([])
    expect(sources).toContain('raw-text:src/cli/topics/bulk.md')
  })

  it('packs the licence, the notices and the source map', () => {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    ) as [{ files: { path: string }[] }]
    const files = packed.files.map((file) => file.path)
    expect(files).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'bin/chamberctl.cjs',
        'dist/launch.cjs',
        'dist/chamberctl.cjs',
        'dist/chamberctl.cjs.map',
        'dist/THIRD-PARTY-NOTICES.txt',
        'dist/jq.wasm',
      ]),
    )
  })
})

function packageVersion(name: string): string {
  const file = path.join(ROOT, 'node_modules', name, 'package.json')
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version
}

// V8 keeps a script with one character beyond ASCII as a two-byte string: twice the memory, twice
// the snapshot of the single executable, and a slower start (bench/README.md).
describe.skipIf(TESTING_BINARY)('the bundle is ASCII', () => {
  it('dist/chamberctl.cjs has no byte beyond ASCII, so the launcher can read it as latin1', () => {
    const bundle = readFileSync(dist('chamberctl.cjs'))
    expect(bundle.findIndex((byte) => byte > 0x7f)).toBe(-1)
  })

  it('the build refuses a bundle that is not, saying where', () => {
    expect(() => assertAscii(Buffer.from('const city = /ü/g'), 'x.cjs')).toThrow(
      /^x\.cjs is not ASCII at byte 14: …const city = \/ü\/g… \(write the character as an escape\)$/,
    )
    expect(() => assertAscii(Buffer.from('const city = /\\u00fc/g'), 'x.cjs')).not.toThrow()
  })
})
