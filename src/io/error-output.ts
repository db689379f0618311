// How a failure is written on stderr: `error: <message>` (wrapped to the terminal, the label red
// with colour), a table of per-field messages, and with --json or -o ndjson the JSON error object
// (contract §6). The one writer of that object, a command-line usage error included.
import type { ErrorReport } from '../errors.js'
import { painter } from './color.js'
import type { OutputFormat } from './format.js'
import type { IO } from './streams.js'
import { escapeForTerminal, escapeJsonForTerminal } from './terminal-text.js'
import { cells, wrapText } from './wrap.js'

type ErrorIO = Pick<IO, 'err'> & Partial<Pick<IO, 'stderrIsTTY' | 'stderrWidth'>>
// What is said of a failure; its exit code is the caller's business.
export type ErrorText = Omit<ErrorReport, 'exitCode'>

// Synchronous and free of imports that load anything: it runs in the top-level error handler,
// which must report even when the failure was a module that would not load. Fitted to the
// terminal by wrap.ts, which counts cells exactly once the handler has loaded string-width.
export function writeError(
  io: ErrorIO,
  error: ErrorText,
  opts: { format: OutputFormat; color: boolean },
): void {
  const lines = Object.entries(error.fields ?? {}).flatMap(([field, messages]) =>
    messages.map((message) => [escapeForTerminal(field), escapeForTerminal(message)] as const),
  )
  const width = Math.max(0, ...lines.map(([field]) => cells(field)))
  const text = wrapText(
    [
      `error: ${escapeForTerminal(error.message.trimEnd(), '\n\t')}`,
      ...lines.map(
        ([field, message]) => `  ${field}${' '.repeat(width - cells(field))}  ${message}`,
      ),
    ].join('\n'),
    io.stderrWidth,
  )
  // The label coloured once the line is fitted.
  let out = `${painter(opts.color)('red', 'error:')}${text.slice('error:'.length)}\n`
  if (opts.format === 'json' || opts.format === 'ndjson') out += jsonErrorLine(io, error)
  io.err.write(out)
}

// `{"error":{"status":…,"code":…,"message":…,"fields":{…}}}` and a line break; escaped for a
// terminal (the message may quote a server) as JSON escapes, so that it parses the same.
export function jsonErrorLine(io: Pick<ErrorIO, 'stderrIsTTY'>, error: ErrorText): string {
  const { status, code, message } = error
  const json = JSON.stringify({ error: { status, code, message, fields: error.fields ?? {} } })
  return `${io.stderrIsTTY ? escapeJsonForTerminal(json) : json}\n`
}
