// How chamberctl writes its JSON files in the config directory: through conf, which writes with
// `atomically` (temp file, fsync, chmod, rename; node_modules/conf/dist/source/index.js `_write`),
// so a reader sees the old file or the new one, never a torn one. conf is loaded only when a file
// is written: reading is a plain JSON.parse, cheaper than conf and its ajv on every command.
import type Conf from 'conf'
import { CliError } from '../errors.js'
import { describeFsError } from './dir.js'

export type ConfClass = typeof Conf

// The top level of one of these files: an empty file (say, from `touch`) holds nothing; undefined
// for JSON that is not an object; a SyntaxError for text that is not JSON.
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  const value: unknown = text.trim() === '' ? {} : JSON.parse(text)
  return isObject(value) ? value : undefined
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export async function loadConf(): Promise<ConfClass> {
  return (await import('conf')).default
}

// Sets top-level keys of <dir>/<name>.json (0600), leaving the others, a newer chamberctl's
// included, as they are. `parse` reads the current text as this file's own reader does.
export function writeKeys(
  ConfStore: ConfClass,
  file: { dir: string; name: string; path: string },
  values: Record<string, unknown>,
  parse: (text: string) => Record<string, unknown>,
): void {
  try {
    const conf = new ConfStore({
      projectName: 'chamberctl',
      projectSuffix: '',
      cwd: file.dir,
      configName: file.name,
      fileExtension: 'json',
      configFileMode: 0o600,
      // conf would otherwise be free to reset a file it cannot parse; a file is only ever
      // replaced on purpose, by the code that reads it.
      clearInvalidConfig: false,
      // Profile names may contain dots; they must never be read as nested key paths.
      accessPropertiesByDotNotation: false,
      // No `schema`: compiling it with ajv would cost time; `parse` checks instead.
      deserialize: parse,
    })
    // One write, as set() with an object would make.
    conf.store = { ...conf.store, ...values }
  } catch (error) {
    if (error instanceof CliError) throw error
    throw new CliError(`cannot write ${file.path}: ${describeFsError(error)}`)
  }
}
