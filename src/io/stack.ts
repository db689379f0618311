// --debug's stack trace, pointed into the sources. The bundle ships with a linked source map
// (without the sources' text); it is read only here, on the way out of a failed run with --debug,
// so that no other run pays for source maps. A frame the map does not cover stays as it is.
import { readFileSync } from 'node:fs'
import { SourceMap } from 'node:module'
import path from 'node:path'

// `    at name (file:line:column)` or `    at file:line:column`.
const FRAME = /^(\s+at (?:.*\()?)([^()\s]+):(\d+):(\d+)(\)?)$/gm

export function mapStack(stack: string, readMap: (file: string) => string = mapBeside): string {
  const maps = new Map<string, SourceMap | undefined>()
  return stack.replace(FRAME, (frame, before: string, file: string, line, column, after) => {
    if (!maps.has(file))
      maps.set(
        file,
        parseMap(() => readMap(file)),
      )
    const entry = maps.get(file)?.findEntry(Number(line) - 1, Number(column) - 1)
    if (entry === undefined || !('originalSource' in entry)) return frame
    // The map names sources relative to the bundle's directory (dist/): shown from the package's.
    const source = entry.originalSource.replace(/^(\.\.\/)+/, '')
    return `${before}${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}${after}`
  })
}

function parseMap(read: () => string): SourceMap | undefined {
  try {
    return new SourceMap(JSON.parse(read()))
  } catch {
    return undefined
  }
}

// The npm package has the map beside the bundle; a single executable carries it as an asset.
function mapBeside(file: string): string {
  const sea = process.getBuiltinModule('node:sea')
  if (sea.isSea()) return sea.getAsset(`${path.basename(file)}.map`, 'utf8')
  return readFileSync(`${file}.map`, 'utf8')
}
