// The entry: builds the context, runs the program, and turns every outcome into an exit code.
import { CommanderError } from 'commander'
import type { IO } from '../io/streams.js'
import { processIO } from '../io/streams.js'
import { sayNow } from '../io/wrap.js'
import type { Context } from '../cmdutil/context.js'
import { describeError, ExitCode, SilentError } from '../errors.js'
import { helpNeedsRenderer, loadRenderer } from './help.js'
import type { ErrorText } from '../io/error-output.js'
import { createProgram, oneLine } from './program.js'
import { DEFAULT_GLOBALS } from '../cmdutil/globals.js'
import { Secrets } from '../api/redact.js'
import { Waiting } from '../cmdutil/waiting.js'
import type { Timers } from '../cmdutil/waiting.js'

export function createContext(
  io: IO,
  dispatcher?: Context['dispatcher'],
  sleep?: Context['sleep'],
  timers?: Timers,
): Context {
  let profiles: ReturnType<Context['profiles']> | undefined
  let api: ReturnType<Context['api']> | undefined
  let waiting: Waiting | undefined
  const ctx: Context = {
    io,
    globals: DEFAULT_GLOBALS,
    secrets: new Secrets(),
    cleanup: [],
    dispatcher,
    sleep,
    timers,
    get waiting() {
      return (waiting ??= new Waiting(ctx, { timers }))
    },
    profiles: () =>
      (profiles ??= (async () => {
        const [{ ProfileStore }, { configDir }] = await Promise.all([
          import('../config/profiles.js'),
          import('../config/dir.js'),
        ])
        return ProfileStore.open(configDir(io.env), {
          // Read when it happens, after the global options are parsed.
          notice: (message) => {
            if (!ctx.globals.quiet) sayNow(io, `warning: ${message}`)
          },
        })
      })()),
    api: (options) =>
      (api ??= (async () => {
        const { buildClient } = await import('../cmdutil/connect.js')
        return buildClient(ctx, options)
      })()),
  }
  return ctx
}

export async function main(
  argv: string[],
  io: IO,
  dispatcher?: Context['dispatcher'],
  sleep?: Context['sleep'],
  timers?: Timers,
): Promise<number> {
  const ctx = createContext(io, dispatcher, sleep, timers)
  const program = createProgram(ctx, argv)
  try {
    // `chamberctl` alone asks what there is: the help is the answer, not an error.
    if (argv.length <= 2) {
      program.outputHelp()
      return ExitCode.ok
    }
    // commander asks for a command's help text synchronously: the renderer of its manual first.
    if (helpNeedsRenderer(program, argv.slice(2))) await loadRenderer()
    await program.parseAsync(argv)
    // jq has printed its own message, as the jq binary would, and carried on with the rest.
    return ctx.globals.jq?.failed ? ExitCode.failure : ExitCode.ok
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return ExitCode.ok
      // Commander's own errors (an unknown option, a value not among the choices) are said as
      // every other error is: fitted to the terminal, and as JSON to scripts that asked for it.
      const message = oneLine(error.message).replace(/^error: /, '')
      await writeReport(io, { status: null, code: 'usage', message }, ctx, wantsJson(argv))
      return ExitCode.usage
    }
    return report(error, io, ctx)
  } finally {
    for (const close of ctx.cleanup.reverse()) await close().catch(() => {})
  }
}

async function report(error: unknown, io: IO, ctx: Context): Promise<number> {
  if (error instanceof SilentError) return error.exitCode
  const described = describeError(error, ctx.secrets.redact)
  const json = ctx.globals.format === 'json' || ctx.globals.format === 'ndjson'
  await writeReport(io, described, ctx, json)
  if (ctx.globals.debug && error instanceof Error && error.stack) {
    const [{ mapStack }, { escapeForTerminal }] = await Promise.all([
      import('../io/stack.js'),
      import('../io/terminal-text.js'),
    ])
    // The stack starts with the message, which may quote a server.
    io.err.write(`${escapeForTerminal(ctx.secrets.redact(mapStack(error.stack)), '\n')}\n`)
  }
  return described.exitCode
}

async function writeReport(io: IO, error: ErrorText, ctx: Context, json: boolean): Promise<void> {
  const [{ writeError }, { loadCells }] = await Promise.all([
    import('../io/error-output.js'),
    import('../io/wrap.js'),
  ])
  // Exact cells for the terminal; a failed load leaves wrap.ts's upper bound.
  if (io.stderrIsTTY) await loadCells().catch(() => {})
  writeError(io, error, { format: json ? 'json' : 'table', color: ctx.globals.errorColor })
}

// Before the options are parsed (they failed to), the only way to know the format asked for.
function wantsJson(argv: string[]): boolean {
  return argv.some(
    (arg, i) =>
      arg === '--json' ||
      /^(-o|--output)=?(json|ndjson)$/.test(arg) ||
      ((arg === '-o' || arg === '--output') && /^(json|ndjson)$/.test(argv[i + 1] ?? '')),
  )
}

// A stdout that a reader closed early (`| head`) or that cannot be written is handled by
// processIO(): a quiet end, or one line on stderr; a bulk run winds down instead.
export async function run(): Promise<void> {
  process.exitCode = await main(process.argv, processIO())
}
