// Small node:http helpers for the sandbox: JSON answers, errors as values, bounded body reading.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FieldErrors } from '../api/schemas.js'

export const BODY_LIMIT = 1024 * 1024

export type Headers = Record<string, string>

// Thrown by handlers; the server turns it into the answer.
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Headers = {},
  ) {
    super(String(body.error))
  }
}

export function validationError(message: string, fields: FieldErrors): HttpError {
  return new HttpError(422, { error: message, fields })
}

export function notFound(message: string): HttpError {
  return new HttpError(404, { error: message })
}

// No body at all when `body` is undefined (a 204).
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Headers = {},
) {
  if (body === undefined) {
    res.writeHead(status, headers)
    return void res.end()
  }
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  })
  res.end(text)
}

const MEDIA_TYPE = /^\s*([^;\s]+)/

export function mediaType(req: IncomingMessage): string | undefined {
  return MEDIA_TYPE.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase()
}

// The body each request was read with, for the request log (control.ts).
const bodies = new WeakMap<IncomingMessage, string>()

export function bodyOf(req: IncomingMessage): string | undefined {
  return bodies.get(req)
}

// Reads the whole body, refusing past BODY_LIMIT without buffering the excess. Listeners, not
// for await: leaving a for await loop destroys the request and its socket, so a client still
// streaming an oversized body saw a reset (EPIPE) instead of the 413.
export function readBody(req: IncomingMessage): Promise<string> {
  if (Number(req.headers['content-length']) > BODY_LIMIT) return Promise.reject(tooLarge())
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= BODY_LIMIT) return void chunks.push(chunk)
      // The stream keeps flowing: the rest is drained and dropped while the 413 goes out.
      req.off('data', onData).off('end', onEnd)
      reject(tooLarge())
    }
    const onEnd = () => {
      const text = Buffer.concat(chunks).toString('utf8')
      bodies.set(req, text)
      resolve(text)
    }
    req.on('data', onData).on('end', onEnd).once('error', reject)
  })
}

// No `connection: close`: closing while the client is still sending resets the connection, and
// the reset can reach the client before it has read the 413.
function tooLarge(): HttpError {
  return new HttpError(413, { error: `request body exceeds ${BODY_LIMIT} bytes` })
}

export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const type = mediaType(req)
  if (type !== 'application/json' && !type?.endsWith('+json')) {
    throw new HttpError(415, {
      error: `content type must be application/json, not ${type ?? 'missing'}`,
    })
  }
  const text = await readBody(req)
  try {
    return JSON.parse(text)
  } catch {
    throw new HttpError(400, { error: 'request body is not valid JSON' })
  }
}
