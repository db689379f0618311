// The plain-HTTP rule: credentials never cross the network in clear unless asked to.
import { plainHttpHost } from '../../api/plain-http.js'
import { UsageError } from '../../errors.js'
import { say } from '../../io/wrap.js'
import type { Context } from '../context.js'

// Before anything is sent: a secret or token for a plain-HTTP host other than this machine
// would cross the network in clear.
export async function refuseInsecure(ctx: Context, baseUrl: string): Promise<void> {
  const host = plainHttpHost(baseUrl)
  if (!host) return
  if (!ctx.globals.insecureHttp) {
    throw new UsageError(
      `refusing to send credentials over plain HTTP to ${host}: use an https:// base URL, ` +
        'or --insecure-http (CHAMBERCTL_INSECURE_HTTP=1) if you really mean it',
    )
  }
  if (!ctx.globals.quiet) {
    await say(ctx.io, `warning: credentials go over plain HTTP to ${host} (--insecure-http)`)
  }
}
