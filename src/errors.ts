// Typed errors and the one table that turns them into exit codes (contract §6).
import { getSystemErrorMessage } from 'node:util'
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  notFound: 3,
  auth: 4,
  network: 5,
  // Ended early by a signal: 128 + its number, as a shell reports it.
  interrupted: 130,
  terminated: 143,
  hangup: 129,
} as const
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode]

// The signals that end a run early, each with its exit code.
export const SIGNAL_EXIT_CODES = {
  SIGINT: ExitCode.interrupted,
  SIGTERM: ExitCode.terminated,
  SIGHUP: ExitCode.hangup,
} as const

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.failure,
    readonly code = 'failure',
    // Per-field messages, printed as a small table under the message.
    readonly fields?: Record<string, string[]>,
  ) {
    super(message)
  }
}

export class UsageError extends CliError {
  constructor(message: string, fields?: Record<string, string[]>) {
    super(message, ExitCode.usage, fields ? 'validation_failed' : 'usage', fields)
  }
}

// The command has already told the user what went wrong; only the exit code is left to give.
export class SilentError extends CliError {
  constructor(exitCode: ExitCode, code: string) {
    super('', exitCode, code)
  }
}

// Thrown when the user interrupts (Ctrl-C at a prompt, SIGINT in a long run), or a signal from
// outside ends a prompt (with that signal's exit code).
export class CancelError extends CliError {
  constructor(message = 'interrupted', exitCode: ExitCode = ExitCode.interrupted) {
    super(message, exitCode, 'interrupted')
  }
}

// ApiError's stable codes, without importing the client into start-up.
const API_EXIT_CODES: Record<string, ExitCode> = {
  unauthorized: ExitCode.auth,
  invalid_client: ExitCode.auth,
  forbidden: ExitCode.auth,
  not_configured: ExitCode.auth,
  not_found: ExitCode.notFound,
  validation_failed: ExitCode.usage,
  connection_failed: ExitCode.network,
  connection_lost: ExitCode.network,
  timeout: ExitCode.network,
  unknown_outcome: ExitCode.network,
}

export type ErrorReport = {
  exitCode: number
  status: number | null
  code: string
  message: string
  fields?: Record<string, string[]>
}

// The one place that decides what an error means for the user: message, code and exit code.
// `redact` masks secrets (src/api/redact.ts, which sits above this module) in every text shown.
export function describeError(error: unknown, redact: (text: string) => string): ErrorReport {
  const report = describe(error)
  const fields =
    report.fields &&
    Object.fromEntries(
      Object.entries(report.fields).map(([field, messages]) => [field, messages.map(redact)]),
    )
  return { ...report, message: redact(report.message), fields }
}

function describe(error: unknown): ErrorReport {
  if (error instanceof CliError) {
    const { exitCode, code, message, fields } = error
    return { exitCode, status: null, code, message, fields }
  }
  if (error instanceof Error && error.name === 'ApiError') {
    const api = error as Error & {
      code: string
      hint?: string
      status: number | null
      fields?: Record<string, string[]>
    }
    let message = api.message
    if (api.hint) message += `; ${api.hint}`
    else if (api.code === 'unauthorized') message += '; run `chamberctl login`'
    return {
      exitCode: API_EXIT_CODES[api.code] ?? ExitCode.failure,
      status: api.status,
      code: api.code,
      message,
      fields: api.fields,
    }
  }
  const message = error instanceof Error ? error.message : String(error)
  return { exitCode: ExitCode.failure, status: null, code: 'internal', message }
}

// A failed system call in words: `no space left on device (ENOSPC)`, not Node's
// `ENOSPC: no space left on device, write`.
export function describeSystemError(error: unknown): string {
  const { errno, code, message } = (error ?? {}) as NodeJS.ErrnoException
  if (typeof errno === 'number' && errno < 0) {
    return `${getSystemErrorMessage(errno)}${code ? ` (${code})` : ''}`
  }
  return typeof message === 'string' ? message : String(error)
}

// The one line for a stdout that cannot be written (`> /dev/full`), whoever finds it out.
export function stdoutFailure(error: unknown): string {
  return `error: cannot write to standard output: ${describeSystemError(error)}`
}
