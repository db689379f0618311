import { rmSync, writeFileSync } from 'node:fs'
import { isLoopback } from '../../api/plain-http.js'
import { redactUrl } from '../../api/redact.js'
import type { Context } from '../../cmdutil/context.js'
import { CliError } from '../../errors.js'
import { shellWord } from '../../io/shell-word.js'
import { replaceFile, temporaryPath } from '../../sandbox/data-file.js'
import { DEMO_LARGE_CHAMBER_ID } from '../../sandbox/demo-data.js'
import { startSandbox } from '../../sandbox/server.js'
import type { Sandbox } from '../../sandbox/server.js'
import { DataFileError } from '../../sandbox/store.js'
import { say } from '../../io/wrap.js'

export type Options = {
  host: string
  port: number
  data?: string
  empty?: boolean
  demoMembers?: number
  tokenTtl: number
  clientId: string
  clientSecret: string
  latency: number
  failRate: number
  strict?: boolean
  portFile?: string
  cors?: string
}

// Serves until SIGINT or SIGTERM, then stops accepting, finishes writes and returns (exit 0).
export async function serve(
  opts: Options,
  { io, globals }: Pick<Context, 'io' | 'globals'>,
): Promise<void> {
  const quiet = globals.quiet
  if (!isLoopback(opts.host)) {
    await say(
      io,
      `warning: listening on ${opts.host}, not loopback: the sandbox and its fixed credentials are reachable from the network`,
    )
  }
  const started = performance.now()
  const sandbox = await startSandbox({
    host: opts.host,
    port: opts.port,
    dataFile: opts.data,
    empty: opts.empty,
    demoMembers: opts.demoMembers,
    tokenTtlSeconds: opts.tokenTtl,
    clientId: opts.clientId,
    clientSecret: opts.clientSecret,
    latencyMs: opts.latency,
    failRate: opts.failRate,
    strict: opts.strict,
    cors: opts.cors,
    onRequest: quiet
      ? undefined
      : ({ method, path, status, ms, warnings }) =>
          io.err.write(
            [
              `${method} ${redactTarget(path)} ${status} ${ms}ms`,
              ...warnings.map((w) => `  warning: ${w}`),
            ]
              .map((line) => `${line}\n`)
              .join(''),
          ),
  }).catch((error: unknown) => {
    throw explain(error, opts)
  })
  if (!quiet && opts.demoMembers) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    io.err.write(
      `Added ${opts.demoMembers} demo members to ${DEMO_LARGE_CHAMBER_ID} in ${seconds} s.\n`,
    )
  }
  // Listening for the signals before telling where it serves: a script may send one as soon as it
  // reads the start line or the port file.
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  if (globals.format === 'json') {
    io.out.write(`${JSON.stringify(startLine(sandbox))}\n`)
  } else {
    io.out.write(banner(sandbox))
    if (!quiet) io.err.write(exportLines(sandbox))
  }
  // After the start line: a script that waits for the file finds the line there too.
  if (opts.portFile) {
    try {
      writePortFile(opts.portFile, sandbox.port)
    } catch (error) {
      await sandbox.close()
      throw new CliError(`cannot write --port-file ${opts.portFile}: ${(error as Error).message}`)
    }
  }
  if (!quiet) io.err.write('Serving; press Ctrl-C to stop.\n')
  const signal = await stopped
  if (!quiet) io.err.write(`Stopping (${signal}).\n`)
  // A port file left behind would name a port nothing serves any more.
  if (opts.portFile) rmSync(opts.portFile, { force: true })
  await sandbox.close()
}

// A request's path and query for the log: a token or secret sent in the query is masked.
function redactTarget(target: string): string {
  if (!target.includes('?')) return target
  const url = new URL(redactUrl(new URL(target, 'http://sandbox.invalid').href))
  return url.pathname + url.search
}

function banner(sandbox: Sandbox): string {
  return [
    `v1 base URL:    ${sandbox.baseUrl('v1')}`,
    `v2 base URL:    ${sandbox.baseUrl('v2')}`,
    `client id:      ${sandbox.credentials.clientId}`,
    `client secret:  ${sandbox.credentials.clientSecret}`,
    '',
  ].join('\n')
}

// The variables a shell needs to use this sandbox, ready to paste (as `gh` prints commands to run):
// on stderr, so the banner on stdout stays what a script reads.
function exportLines(sandbox: Sandbox): string {
  const variables = {
    CHAMBERCTL_BASE_URL: sandbox.baseUrl('v2'),
    CHAMBERCTL_CLIENT_ID: sandbox.credentials.clientId,
    CHAMBERCTL_CLIENT_SECRET: sandbox.credentials.clientSecret,
  }
  const lines = Object.entries(variables).map(
    ([name, value]) => `export ${name}=${shellWord(value)}`,
  )
  return ['To use it from another shell:', ...lines, ''].join('\n')
}

// --json: the start as one line for a script, documented in manual.md.
function startLine(sandbox: Sandbox) {
  return {
    url: sandbox.url,
    base_urls: { v1: sandbox.baseUrl('v1'), v2: sandbox.baseUrl('v2') },
    port: sandbox.port,
    client_id: sandbox.credentials.clientId,
    client_secret: sandbox.credentials.clientSecret,
  }
}

// Written whole or not at all: a script polling for the file never reads half a port.
function writePortFile(path: string, port: number): void {
  const temporary = temporaryPath(path)
  writeFileSync(temporary, `${port}\n`)
  replaceFile(temporary, path)
}

function explain(error: unknown, opts: Options): unknown {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EADDRINUSE') {
    return new CliError(`${opts.host}:${opts.port} is already in use; try --port 0 or another port`)
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new CliError(`cannot listen on ${opts.host}: no such local address`)
  }
  if (code === 'EACCES') return new CliError(`not allowed to listen on ${opts.host}:${opts.port}`)
  if (error instanceof DataFileError) return new CliError(error.message)
  if (code && opts.data && (error as NodeJS.ErrnoException).path) {
    return new CliError(`cannot use data file ${opts.data}: ${(error as Error).message}`)
  }
  return error
}
