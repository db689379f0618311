// Typed errors and the one table that turns them into exit codes (contract §6).
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  notFound: 3,
  auth: 4,
  network: 5,
  interrupted: 130,
} as const
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode]

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.failure,
    readonly code = 'failure',
  ) {
    super(message)
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.usage, 'usage')
  }
}
