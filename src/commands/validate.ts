// Checks a request body with the shared schemas before anything is sent: a bad value is a usage
// error naming each field, exit 2, like the server's 422.
import type * as z from 'zod/mini'
import { toFieldErrors } from '../api/schemas.js'
import { UsageError } from '../errors.js'

export function validated<S extends z.ZodMiniType>(
  schema: S,
  body: unknown,
  what: string,
): z.infer<S> {
  const result = schema.safeParse(body)
  if (result.success) return result.data
  const fields = toFieldErrors(result.error)
  throw new UsageError(`${what} is not valid: ${Object.keys(fields).join(', ')}`, fields)
}

// Without a terminal nothing is asked: every missing value is named at once.
export function requireGiven(missing: (string | false | undefined)[], canPrompt: boolean): void {
  const flags = missing.filter((flag): flag is string => Boolean(flag))
  if (flags.length && !canPrompt) {
    throw new UsageError(
      `missing ${flags.join(', ')} (not prompting: no terminal, --no-input or CI)`,
    )
  }
}
