// Refuses v2-only commands and flags on a /v1 base URL before any request is sent (contract §3).
import type { ApiVersion } from '../api/constants.js'
import { UsageError } from '../errors.js'

export function requireV2(
  version: ApiVersion | undefined,
  baseUrl: string,
  what: string | undefined,
): void {
  if (version === 'v1' && what) {
    throw new UsageError(`${what} needs API v2, but ${baseUrl} is API v1; use a /v2 base URL`)
  }
}

// The first of the given v2-only flags that was used, for the refusal message.
export function usedFlag(flags: Record<string, unknown>, names: Record<string, string>) {
  const used = Object.keys(names).find((key) => flags[key] !== undefined)
  return used && names[used]
}
