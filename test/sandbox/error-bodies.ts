// The sandbox's error bodies, as its tests read them: 401 {error: invalid_client|invalid_token,
// error_description}, 404 {error}, 422 {error, fields}. The client reads any server's with
// readErrorBody (src/api/responses.ts).
import * as z from 'zod/mini'

export const oauthErrorSchema = z.looseObject({
  error: z.string(),
  error_description: z.optional(z.string()),
})
export const notFoundErrorSchema = z.looseObject({ error: z.string() })
const fieldErrorsSchema = z.record(z.string(), z.array(z.string()))
export const validationErrorSchema = z.looseObject({
  error: z.string(),
  fields: fieldErrorsSchema,
})
export const apiErrorBodySchema = z.looseObject({
  error: z.string(),
  error_description: z.optional(z.string()),
  fields: z.optional(fieldErrorsSchema),
})
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>
