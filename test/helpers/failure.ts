// The ApiError a promise rejects with; a promise that resolves fails the test.
import type { ApiError } from '../../src/api/errors.js'

export async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise
  } catch (error) {
    return error as ApiError
  }
  throw new Error('expected a failure')
}
