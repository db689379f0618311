// What commands are handed instead of globals: the IO, the resolved global options, and lazy,
// cached factories for the profile store and the API client, so that `--help` reads no config
// and `--version` loads no HTTP code.
import type { Dispatcher } from 'undici'
import type { Client } from '../api/client.js'
import type { Secrets } from '../api/redact.js'
import type { ProfileStore } from '../config/profiles.js'
import type { OutputFormat } from '../io/format.js'
import type { JqProgram } from '../io/jq.js'
import type { IO } from '../io/streams.js'
import type { ApiVersion } from '../api/constants.js'
import type { Timers, Waiting } from './waiting.js'

export type Globals = {
  // The profile named for this command (--profile, CHAMBERCTL_PROFILE); see ProfileStore.select.
  profile?: string
  baseUrl?: string
  // The embedded sandbox's API version, when --sandbox or CHAMBERCTL_SANDBOX asks for one.
  sandbox?: ApiVersion
  format: OutputFormat
  // Whether -o/--json was given, as opposed to the TTY/pipe default.
  formatChosen: boolean
  fields?: string[]
  // --jq, compiled before the command runs.
  jq?: JqProgram
  // Colour on stdout and on stderr, each decided for its own stream.
  color: boolean
  errorColor: boolean
  canPrompt: boolean
  yes: boolean
  debug: boolean
  timeoutMs: number
  // Credentials may go over plain HTTP to a host that is not this machine.
  insecureHttp: boolean
  quiet: boolean
  // --wide: tables keep every column and cut nothing.
  wide: boolean
  // The pager a terminal's output goes through (--no-pager, CHAMBERCTL_PAGER, PAGER); none in a
  // pipe.
  pager?: string
  // --accessible, CHAMBERCTL_ACCESSIBLE: also set on the IO, where what draws reads it.
  accessible: boolean
}

export type ApiOptions = {
  // The most requests the command keeps in flight at once (a bulk run's --concurrency): the
  // HTTP agent opens no more connections than that.
  connections?: number
}

export type Context = {
  io: IO
  globals: Globals
  profiles(): Promise<ProfileStore>
  // Built by the first call, which may say how many requests the command keeps in flight.
  api(options?: ApiOptions): Promise<Client>
  // The secret values this run has handled, masked in everything it prints but data.
  secrets: Secrets
  // What a request that waits for its answer shows on a terminal (a spinner), and the way to
  // keep it off the screen while something else draws there.
  waiting: Waiting
  // Run before the process exits: closing the embedded sandbox, the HTTP agent.
  cleanup: (() => Promise<void>)[]
  // Where HTTP goes instead of a fresh keep-alive Agent: tests hand in undici's MockAgent.
  dispatcher?: Dispatcher
  // How a retry waits out its backoff (or Retry-After): tests hand in a clock that records the
  // wait instead of sleeping.
  sleep?: (ms: number) => Promise<void>
  // The timers of what is bounded by a person's patience rather than by --timeout: the second
  // before the waiting line, completion's budget. Tests hand in timers of their own.
  timers?: Timers
}
