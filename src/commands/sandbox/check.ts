// `chamberctl sandbox --check`: asks GET /_sandbox/health of the sandbox at --host and --port, for
// a container's HEALTHCHECK or a CI job waiting for the sandbox it started. Exit 0 when it
// answers 200, 1 (with the reason) when not.
import type { Context } from '../../cmdutil/context.js'
import { CliError } from '../../errors.js'
import { clientOrigin } from '../../sandbox/address.js'
import type { Options } from './serve.js'

// A health check that hangs is a failed one; docker's own default timeout is 30 s.
export const CHECK_TIMEOUT_MS = 5000

export async function check(
  opts: Pick<Options, 'host' | 'port'>,
  { io }: Pick<Context, 'io'>,
): Promise<void> {
  const url = `${clientOrigin(opts.host, opts.port)}/_sandbox/health`
  let status: number
  try {
    const answer = await fetch(url, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) })
    await answer.body?.cancel()
    status = answer.status
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code
    const reason = cause ?? (error as Error).name
    throw new CliError(`no sandbox answers at ${url}: ${reason}`)
  }
  if (status !== 200) throw new CliError(`${url} answered ${status}, not 200: not a sandbox?`)
  io.out.write(`sandbox up at ${url}\n`)
}
