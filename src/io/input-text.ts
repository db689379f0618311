import { isUtf8 } from 'node:buffer'
import { createReadStream } from 'node:fs'
import type { Readable } from 'node:stream'
import { InputError } from './input-error.js'

export type InputText = { name: string; text: string }

type Decoder = InstanceType<typeof TextDecoder>

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
    throw readError(name, error)
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
  checkNul(text, name, 1)
  return { name, text }
}

// A file read a piece at a time and decoded as readInputText decodes it, with no bound on its
// size: for a reader that keeps only a part of it. The line of a bad byte is that of the piece
// that holds it when the piece starts inside a character.
export async function* inputTextPieces(path: string): AsyncGenerator<string> {
  // Pieces of 64 KiB: with 1 MiB ones, reading a million members peaked 40 MiB higher (each
  // piece a large object, kept until a full collection).
  const stream = createReadStream(path, { highWaterMark: 64 * 1024 })
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  const next = async () => {
    try {
      return await chunks.next()
    } catch (error) {
      throw readError(path, error)
    }
  }
  let decoder: Decoder | undefined
  let line = 1
  try {
    for (let read = await next(); !read.done; read = await next()) {
      decoder ??= decoderFor(read.value)
      const text = decodePiece(decoder, read.value, path, line, true)
      checkNul(text, path, line)
      line += newlines(text)
      yield text
    }
    if (decoder) yield decodePiece(decoder, Buffer.alloc(0), path, line, false)
  } finally {
    stream.destroy()
  }
}

function readError(name: string, error: unknown): InputError {
  return new InputError(`cannot read ${name}: ${osReason(error)}`, { source: name })
}

// Valid UTF-8 can hold NUL bytes, but no text a person writes does: a binary file, or UTF-16
// saved without its BOM. Either would reach the server as garbage. `line` is the text's first.
function checkNul(text: string, name: string, line: number): void {
  const nul = text.indexOf('\u0000')
  if (nul === -1) return
  const at = line + newlines(text.slice(0, nul))
  throw new InputError(
    `${name}: line ${at}: a NUL byte: this is a binary file, not text (or UTF-16 without a BOM)`,
    { source: name, line: at },
  )
}

export function newlines(text: string): number {
  let n = 0
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) n++
  return n
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
function decoderFor(bytes: Buffer): Decoder {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le')
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be')
  // TextDecoder drops a leading BOM by itself.
  return new TextDecoder('utf-8', { fatal: true })
}

function decode(bytes: Buffer, name: string): string {
  return decodePiece(decoderFor(bytes), bytes, name, 1, false)
}

// `line` is the line the bytes start on; `stream` says more bytes follow.
function decodePiece(
  decoder: Decoder,
  bytes: Buffer,
  name: string,
  line: number,
  stream: boolean,
): string {
  try {
    return decoder.decode(bytes, { stream })
  } catch {
    const at = line - 1 + firstNonUtf8Line(bytes)
    throw new InputError(
      `${name}: line ${at}: not UTF-8 text (save the file with UTF-8 encoding)`,
      { source: name, line: at },
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
