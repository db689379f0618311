// How a failure is written on stderr: `error: <message>` (wrapped to the terminal, the label red
// with colour), a table of per-field messages, and with --json or -o ndjson the JSON error object
// (contract §6). The one writer of that object, a command-line usage error included.
import type { ErrorReport } from '../errors.js'
import { painter } from './color.js'
import type { OutputFormat } from './format.js'
import type { IO } from './streams.js'
import { escapeForTerminal, escapeJsonForTerminal } from './terminal-text.js'
import { wrapText } from './wrap.js'

type ErrorIO = Pick<IO, 'err'> & Partial<Pick<IO, 'stderrIsTTY' | 'stderrWidth'>>
// What is said of a failure; its exit code is the caller's business.
export type ErrorText = Omit<ErrorReport, 'exitCode'>

// Synchronous and free of imports that load anything: it runs in the top-level error handler,
// which must report even when the failure was a module that would not load.
export function writeError(
  io: ErrorIO,
  error: ErrorText,
  // Terminal cells a field name takes, to align the field table: string-width, which the caller
  // loads only when there is a table, and which a failed load leaves to the name's length.
  opts: { format: OutputFormat; color: boolean; width?: (text: string) => number },
): void {
  const displayWidth = opts.width ?? ((text: string) => text.length)
  const label = painter(opts.color)('red', 'error:')
  // Each line of the message wrapped to the terminal (a list of missing flags is long), the label
  // coloured once the line is fitted.
  const message = escapeForTerminal(error.message.trimEnd(), '\n\t')
    .split('\n')
    .map((line, i) =>
      wrapText(i === 0 ? `error: ${line}` : line, io.stderrWidth, { measure: displayWidth }),
    )
    .join('\n')
  let text = `${label}${message.slice('error:'.length)}\n`
  const lines = Object.entries(error.fields ?? {}).flatMap(([field, messages]) =>
    messages.map((message) => [escapeForTerminal(field), escapeForTerminal(message)] as const),
  )
  const width = Math.max(0, ...lines.map(([field]) => displayWidth(field)))
  for (const [field, message] of lines) {
    text += `  ${field}${' '.repeat(width - displayWidth(field))}  ${message}\n`
  }
  if (opts.format === 'json' || opts.format === 'ndjson') text += jsonErrorLine(io, error)
  io.err.write(text)
}

// `{"error":{"status":…,"code":…,"message":…,"fields":{…}}}` and a line break; escaped for a
// terminal (the message may quote a server) as JSON escapes, so that it parses the same.
export function jsonErrorLine(io: Pick<ErrorIO, 'stderrIsTTY'>, error: ErrorText): string {
  const { status, code, message } = error
  const json = JSON.stringify({ error: { status, code, message, fields: error.fields ?? {} } })
  return `${io.stderrIsTTY ? escapeJsonForTerminal(json) : json}\n`
}
