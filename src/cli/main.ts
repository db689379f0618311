// The entry: builds the context, runs the program, and turns every outcome into an exit code.
import { CommanderError } from 'commander'
import type { IO } from '../io/streams.js'
import { processIO } from '../io/streams.js'
import { CliError, ExitCode } from './errors.js'
import { createProgram } from './program.js'

export async function main(argv: string[], io: IO): Promise<number> {
  const program = createProgram({ io })
  try {
    await program.parseAsync(argv)
    return ExitCode.ok
  } catch (error) {
    return report(error, io)
  }
}

function report(error: unknown, io: IO): number {
  // Commander has already printed its own message (unknown option, bad value, help).
  if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage
  if (error instanceof CliError) {
    io.err.write(`error: ${error.message}\n`)
    return error.exitCode
  }
  io.err.write(
    `error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  return ExitCode.failure
}

export async function run(): Promise<void> {
  process.exitCode = await main(process.argv, processIO())
}
