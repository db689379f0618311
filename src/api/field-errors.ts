// A zod error as the API's `fields` map of a 422: {"address.city": ["must be a string"]}. Apart
// from the schemas, so that what reports a field's error loads none.
import type * as z from 'zod/mini'

export type FieldErrors = Record<string, string[]>

// Turns zod issues into the API's `fields` map.
export function toFieldErrors(error: z.core.$ZodError): FieldErrors {
  const fields: FieldErrors = {}
  for (const issue of error.issues) {
    const key = issue.path.length ? formatPath(issue.path) : 'body'
    ;(fields[key] ??= []).push(issue.message)
  }
  return fields
}

export function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) =>
      typeof part === 'number' ? `[${part}]` : i ? `.${String(part)}` : String(part),
    )
    .join('')
}
