// Turns answers into values or ApiErrors: non-2xx statuses with whatever body came with them,
// and 2xx bodies checked against the shared schemas.
import type * as z from 'zod/mini'
import { ApiError, excerpt } from './errors.js'
import type { ApiErrorCode } from './errors.js'
import { apiErrorBodySchema } from './schemas.js'

export type Answer = {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

function codeForStatus(status: number): ApiErrorCode {
  if (status === 401) return 'unauthorized'
  if (status === 403) return 'forbidden'
  if (status === 404) return 'not_found'
  if (status === 422) return 'validation_failed'
  if (status === 429) return 'rate_limited'
  if (status >= 500) return 'server_error'
  if (status >= 400) return 'bad_request'
  return 'unexpected_response'
}

// Builds the error for a non-2xx answer from whatever body came with it.
export function errorFromResponse(status: number, text: string): ApiError {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  const body = apiErrorBodySchema.safeParse(json)
  const code =
    status === 401 && body.success && body.data.error === 'invalid_client'
      ? 'invalid_client'
      : codeForStatus(status)
  if (body.success) {
    const { error, error_description, fields } = body.data
    const message = error_description ?? error
    return new ApiError(code, `${message} (HTTP ${status})`, { status, fields })
  }
  const shown = excerpt(text)
  return new ApiError(code, `HTTP ${status} from the server${shown ? `: ${shown}` : ''}`, {
    status,
    excerpt: shown,
  })
}

// Parses a 2xx body as JSON; anything else is an unexpected response that names what came back.
export function parseJson(answer: Answer): unknown {
  try {
    return JSON.parse(answer.text)
  } catch {
    throw new ApiError(
      'unexpected_response',
      `the server's answer is not JSON (HTTP ${answer.status}): ${excerpt(answer.text) || '(empty body)'}`,
      { status: answer.status, excerpt: excerpt(answer.text) },
    )
  }
}

export function parseAnswer<S extends z.ZodMiniType>(schema: S, answer: Answer): z.infer<S> {
  const result = schema.safeParse(parseJson(answer))
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const where = issue?.path.length ? issue.path.join('.') : 'body'
  throw new ApiError(
    'unexpected_response',
    `unexpected answer from the server (HTTP ${answer.status}): ${where}: ${issue?.message}; got ${excerpt(answer.text)}`,
    { status: answer.status, excerpt: excerpt(answer.text) },
  )
}
