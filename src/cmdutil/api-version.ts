// Refuses v2-only commands and flags on a /v1 base URL before any request is sent (contract §3).
// The embedded sandbox listens on a port of the moment: its refusal names the setting to change.
import type { ApiVersion } from '../api/constants.js'
import type { Context } from './context.js'
import { UsageError } from '../errors.js'

export function requireV2(
  ctx: Pick<Context, 'globals'>,
  client: { version?: ApiVersion; baseUrl: string },
  what: string | undefined,
): void {
  if (client.version !== 'v1' || !what) return
  throw new UsageError(
    ctx.globals.sandbox
      ? `${what} needs API v2, but the sandbox runs API v1 (CHAMBERCTL_SANDBOX=v1); use CHAMBERCTL_SANDBOX=v2`
      : `${what} needs API v2, but ${client.baseUrl} is API v1; use a /v2 base URL`,
  )
}

// The first of the given v2-only flags that was used, for the refusal message.
export function usedFlag(flags: Record<string, unknown>, names: Record<string, string>) {
  const used = Object.keys(names).find((key) => flags[key] !== undefined)
  return used && names[used]
}
