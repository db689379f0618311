import { isUtf8 } from 'node:buffer'
import { createReadStream } from 'node:fs'
import type { Readable } from 'node:stream'
import { InputError } from './input-error.js'

export type InputText = { name: string; text: string }

// The most read from one file or stdin: far beyond any real fixture or member list (100,000
// members as CSV are about 10 MiB), and a bound on what a wrong file (a disk image, a log) can
// cost in memory.
export const MAX_INPUT_BYTES = 64 * 1024 * 1024

const OS_REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'a parent of the path is not a directory',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'file name too long',
}

// Reads a path, or the given stdin for '-', through a stream (never readFileSync(0), which fails
// on a pipe that is not ready yet) and decodes it. Nothing is trimmed: line numbers in error
// messages must match the file.
export async function readInputText(
  source: string,
  stdin: Readable,
  maxBytes = MAX_INPUT_BYTES,
): Promise<InputText> {
  const name = source === '-' ? 'stdin' : source
  const stream = source === '-' ? stdin : createReadStream(source)
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of stream) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), 'utf8')
      size += bytes.length
      // Leaving the loop closes a file; stdin is simply read no further.
      if (size > maxBytes) break
      chunks.push(bytes)
    }
  } catch (error) {
    throw new InputError(`cannot read ${name}: ${osReason(error)}`, { source: name })
  }
  if (size > maxBytes) {
    throw new InputError(
      `${name} is larger than ${formatBytes(maxBytes)}, the most chamberctl reads from one input`,
      {
        source: name,
      },
    )
  }
  const text = decode(Buffer.concat(chunks), name)
  // Valid UTF-8 can hold NUL bytes, but no text a person writes does: a binary file, or UTF-16
  // saved without its BOM. Either would reach the server as garbage.
  const nul = text.indexOf('\u0000')
  if (nul !== -1) {
    const line = text.slice(0, nul).split('\n').length
    throw new InputError(
      `${name}: line ${line}: a NUL byte: this is a binary file, not text (or UTF-16 without a BOM)`,
      { source: name, line },
    )
  }
  return { name, text }
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`
}

function osReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && OS_REASONS[code]) return OS_REASONS[code]
  const message = error instanceof Error ? error.message : String(error)
  // "EIO: i/o error, read" → "i/o error"
  return message.replace(/^[A-Z0-9_]+: /, '').replace(/, \w+(?: '.*')?$/, '')
}

// UTF-8 (with or without BOM) is the format; UTF-16 with a BOM is what Excel's "Unicode text"
// export writes, so it is decoded rather than refused. Anything else (Windows-1252 from an old
// Excel) is refused: guessing would send mojibake names to the API.
function decode(bytes: Buffer, name: string): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes)
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes)
  try {
    // TextDecoder drops a leading BOM by itself.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    const line = firstNonUtf8Line(bytes)
    throw new InputError(
      `${name}: line ${line}: not UTF-8 text (save the file with UTF-8 encoding)`,
      { source: name, line },
    )
  }
}

function firstNonUtf8Line(bytes: Buffer): number {
  let line = 1
  let start = 0
  while (start <= bytes.length) {
    const newline = bytes.indexOf(0x0a, start)
    const end = newline === -1 ? bytes.length : newline
    if (!isUtf8(bytes.subarray(start, end))) return line
    if (newline === -1) break
    line++
    start = newline + 1
  }
  return line
}
