import type { Readable } from 'node:stream'

// Reads a stream to its end (never readFileSync(0)); one trailing newline is dropped so that
// `echo secret |` and `printf secret |` give the same value.
export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '')
}
