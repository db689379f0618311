// How chamberctl reads and writes its JSON files in the config directory. Writing goes through
// writePrivateFile (dir.ts): a new 0600 file renamed over the old one, never through a link, so
// a reader sees the old file or the new one, never a torn one.
import { readFileSync } from 'node:fs'
import { CliError, describeSystemError } from '../errors.js'
import { isPlainObject } from '../util.js'
import { writePrivateFile } from './dir.js'

// The top level of one of these files: an empty file (say, from `touch`) holds nothing; undefined
// for JSON that is not an object; a SyntaxError for text that is not JSON.
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  const value: unknown = text.trim() === '' ? {} : JSON.parse(text)
  return isPlainObject(value) ? value : undefined
}

// Sets top-level keys of `file` (0600), leaving the others, a newer chamberctl's included, as
// they are. `parse` reads the current text as this file's own reader does; a missing file is
// empty.
export function writeKeys(
  file: string,
  values: Record<string, unknown>,
  parse: (text: string) => Record<string, unknown>,
): void {
  let text = ''
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new CliError(`cannot read ${file}: ${describeSystemError(error)}`)
    }
  }
  writePrivateFile(file, `${JSON.stringify({ ...parse(text), ...values }, undefined, '\t')}\n`)
}
