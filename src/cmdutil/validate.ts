// Checks a request body with the shared schemas before anything is sent: a bad value is a usage
// error naming each field, exit 2, like the server's 422.
import type * as z from 'zod/mini'
import { toFieldErrors } from '../api/field-errors.js'
import { UsageError } from '../errors.js'
import { getPath } from '../io/values.js'

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

export type Asking = { canPrompt: boolean; why: string }

// Whether the missing values of a create can be asked for, and if not, why. Never when the input
// came from stdin (`--from-file -`): stdin is read once, and a prompt after its end closed at once.
export function asking(canPrompt: boolean, fromFile: string | undefined): Asking {
  if (fromFile === '-') return { canPrompt: false, why: 'stdin was the input, --from-file -' }
  return { canPrompt, why: 'no terminal, --no-input or CI' }
}

// Before anything is asked or sent, in one round: every value given that is not valid, and
// when nothing can be asked every value missing. Fields still missing are left to the prompts
// (true: there are some to ask for), or named by their flags.
export function checkGiven<S extends z.ZodMiniType>(
  schema: S,
  body: Record<string, unknown>,
  what: string,
  missing: (string | false | undefined)[],
  { canPrompt, why }: Asking,
): boolean {
  const absent = missing.filter((flag): flag is string => Boolean(flag))
  const flags = canPrompt ? [] : absent
  const result = schema.safeParse(body)
  const fields = result.success
    ? {}
    : Object.fromEntries(
        Object.entries(toFieldErrors(result.error)).filter(
          ([field]) => getPath(body, field) !== undefined,
        ),
      )
  const invalid = Object.keys(fields)
  if (invalid.length === 0 && flags.length === 0) return absent.length > 0
  const problems = [
    invalid.length && `${what} is not valid: ${invalid.join(', ')}`,
    flags.length && `missing ${flags.join(', ')} (not prompting: ${why})`,
  ].filter(Boolean)
  throw new UsageError(problems.join('; '), invalid.length ? fields : undefined)
}
