// The global options of contract §1: declared once on the program, resolved once (flags > env)
// before any command runs.
import type { Command } from 'commander'
import { checkBaseUrl } from '../api/base-url.js'
import { API_VERSIONS } from '../api/constants.js'
import type { ApiVersion } from '../api/constants.js'
import { colorEnabled } from '../io/color.js'
import { OUTPUT_FORMATS, chooseFormat, parseFields } from '../io/format.js'
import type { IO } from '../io/streams.js'
import type { Globals } from './context.js'
import { UsageError } from '../errors.js'
import { seconds } from './parse.js'

export const DEFAULT_TIMEOUT_SECONDS = 30

// In force until the options are parsed (and for --help and --version, which never resolve them).
export const DEFAULT_GLOBALS: Globals = {
  format: 'tsv',
  formatChosen: false,
  color: false,
  errorColor: false,
  canPrompt: false,
  yes: false,
  debug: false,
  timeoutMs: DEFAULT_TIMEOUT_SECONDS * 1000,
  insecureHttp: false,
  quiet: false,
  wide: false,
  accessible: false,
}

type GlobalFlags = {
  profile?: string
  baseUrl?: string
  sandbox?: boolean
  output?: string
  json?: boolean
  fields?: string
  jq?: string
  color?: boolean
  input?: boolean
  yes?: boolean
  debug?: boolean
  timeout?: number
  insecureHttp?: boolean
  quiet?: boolean
  wide?: boolean
  pager?: boolean
  accessible?: boolean
}

export function declareGlobals(program: Command): Command {
  return program
    .option(
      '--profile <name>',
      'named profile (env CHAMBERCTL_PROFILE) (default: the one auth switch chose, else "default")',
    )
    .option('--base-url <url>', 'API base URL ending in /v1 or /v2 (env CHAMBERCTL_BASE_URL)')
    .option('--sandbox', 'run against an embedded sandbox (env CHAMBERCTL_SANDBOX=v2 or v1)')
    .option(
      '-o, --output <format>',
      `output format: ${OUTPUT_FORMATS.join(', ')} (default: table on a terminal, tsv in a pipe)`,
    )
    .option('--json', 'same as -o json')
    .option(
      '--fields <list>',
      'comma-separated columns or keys to print, e.g. id,address.city (see: chamberctl fields)',
    )
    .option('--wide', 'tables: every column, instead of fitting the terminal')
    .option('--jq <expression>', 'filter JSON output with jq (once per record with -o ndjson)')
    .option('--no-color', 'no colour (also NO_COLOR; FORCE_COLOR forces it)')
    .option('--no-input', 'never prompt; a missing value is an error (also CI=true)')
    .option('-y, --yes', 'skip confirmations')
    .option('--debug', 'trace HTTP requests on stderr, secrets redacted (env CHAMBERCTL_DEBUG=1)')
    .option(
      '--timeout <seconds>',
      `per-attempt timeout, connecting included; 0 for none (env CHAMBERCTL_TIMEOUT) (default: ${DEFAULT_TIMEOUT_SECONDS})`,
      seconds,
    )
    .option(
      '--insecure-http',
      'allow credentials over plain HTTP to a host that is not loopback (env CHAMBERCTL_INSECURE_HTTP=1)',
    )
    .option('-q, --quiet', 'no progress and no informational lines on stderr')
    .option(
      '--no-pager',
      'on a terminal, no pager for output longer than the screen (env CHAMBERCTL_PAGER, PAGER)',
    )
    .option(
      '--accessible',
      'for screen readers: no animation, numbered choices, tables as key: value blocks (env CHAMBERCTL_ACCESSIBLE=1)',
    )
}

// Everything but --jq, which needs jq loaded to be compiled (see compileGlobals).
export function resolveGlobals(flags: GlobalFlags, io: IO): Globals {
  const env = io.env
  const format = chooseFormat(
    { output: flags.output, json: flags.json, jq: flags.jq !== undefined },
    io.stdoutIsTTY,
  )
  const sandbox = sandboxVersion(flags.sandbox === true, env.CHAMBERCTL_SANDBOX)
  if (sandbox && flags.baseUrl) {
    throw new UsageError('--sandbox and --base-url cannot be combined: the sandbox has its own URL')
  }
  return {
    profile: flags.profile ?? nonEmpty(env.CHAMBERCTL_PROFILE),
    baseUrl: baseUrlOf(flags.baseUrl, sandbox ? undefined : nonEmpty(env.CHAMBERCTL_BASE_URL)),
    sandbox,
    format,
    formatChosen: flags.output !== undefined || flags.json === true || flags.jq !== undefined,
    fields: flags.fields === undefined ? undefined : parseFields(flags.fields),
    color: colorEnabled({ env, isTTY: io.stdoutIsTTY, flag: flags.color }),
    errorColor: colorEnabled({ env, isTTY: io.stderrIsTTY, flag: flags.color }),
    canPrompt: io.stdinIsTTY && io.stdoutIsTTY && !isCI(env) && flags.input !== false,
    yes: flags.yes === true,
    debug: flags.debug === true || truthy(env.CHAMBERCTL_DEBUG),
    timeoutMs: 1000 * (flags.timeout ?? envTimeout(env.CHAMBERCTL_TIMEOUT)),
    insecureHttp: flags.insecureHttp === true || truthy(env.CHAMBERCTL_INSECURE_HTTP),
    quiet: flags.quiet === true,
    wide: flags.wide === true,
    pager: io.stdoutIsTTY ? pagerCommand(env, flags.pager !== false) : undefined,
    accessible: flags.accessible === true || truthy(env.CHAMBERCTL_ACCESSIBLE),
  }
}

export async function compileGlobals(flags: GlobalFlags, globals: Globals): Promise<Globals> {
  if (flags.jq === undefined) return globals
  const { compileJq } = await import('../io/jq.js')
  return { ...globals, jq: await compileJq(flags.jq) }
}

function baseUrlOf(flag: string | undefined, env: string | undefined): string | undefined {
  if (flag !== undefined) return checkBaseUrl(flag, '--base-url')
  return env === undefined ? undefined : checkBaseUrl(env, 'CHAMBERCTL_BASE_URL')
}

function sandboxVersion(flag: boolean, env: string | undefined): ApiVersion | undefined {
  const value = nonEmpty(env)?.toLowerCase()
  if (value === undefined) return flag ? 'v2' : undefined
  const version = API_VERSIONS.find((v) => v === value)
  if (!version) throw new UsageError(`CHAMBERCTL_SANDBOX must be v2 or v1, not "${env}"`)
  return version
}

// The pager of contract §1: CHAMBERCTL_PAGER, else PAGER, else `less -FRX`. --no-pager, an empty
// CHAMBERCTL_PAGER (or, as git has it, an empty PAGER when that is not set) and `cat` turn it off,
// and so does a TERM that is unset or `dumb`: less there asks for RETURN before it shows anything.
const DEFAULT_PAGER = 'less -FRX'

export function pagerCommand(env: NodeJS.ProcessEnv, enabled: boolean): string | undefined {
  if (!enabled || env.TERM === undefined || env.TERM === '' || env.TERM === 'dumb') return undefined
  const command = (env.CHAMBERCTL_PAGER ?? env.PAGER ?? DEFAULT_PAGER).trim()
  return command === '' || command === 'cat' ? undefined : command
}

function envTimeout(value: string | undefined): number {
  if (nonEmpty(value) === undefined) return DEFAULT_TIMEOUT_SECONDS
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0) {
    throw new UsageError(
      `CHAMBERCTL_TIMEOUT must be a number of seconds (0 for none), not "${value}"`,
    )
  }
  return n
}

function isCI(env: NodeJS.ProcessEnv): boolean {
  return truthy(env.CI)
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false'
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}
