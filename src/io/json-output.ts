// The json and ndjson formats' text: escaped for a terminal, and coloured on one.
import { painter } from './color.js'
import type { OutputIO } from './streaming.js'
import { escapeJsonForTerminal } from './terminal-text.js'

// JSON on a terminal in colour, as gh and jq show it: keys bold blue, strings green, numbers cyan,
// true, false and null yellow. Never in a pipe (not even with FORCE_COLOR: a machine format stays
// what it is) and never without colour (NO_COLOR, --no-color).
const JSON_TOKEN =
  /("(?:[^"\\]|\\.)*")(\s*:)?|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\b(?:true|false|null)\b/g

export function jsonPainter(
  io: Pick<OutputIO, 'stdoutIsTTY'>,
  opts: { color: boolean },
): (json: string) => string {
  if (!io.stdoutIsTTY || !opts.color) return (json) => json
  const paint = painter(true)
  return (json) =>
    json.replace(JSON_TOKEN, (token: string, text?: string, colon?: string) => {
      if (text === undefined) return paint(/^[tfn]/.test(token) ? 'yellow' : 'cyan', token)
      return colon === undefined ? paint('green', text) : `${paint(['bold', 'blue'], text)}${colon}`
    })
}

// Pretty JSON is for a terminal, so it is escaped for one; compact JSON only when asked.
export function toJson(value: unknown, pretty = false, terminal = pretty): string {
  const json = JSON.stringify(value, null, pretty ? 2 : undefined)
  return terminal ? escapeJsonForTerminal(json) : json
}
