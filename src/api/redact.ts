// Masks secrets before anything is traced or stored in an error (octokit's request-error model).
import { valueEnd } from './json-text.js'

const SECRET_KEYS = [
  'authorization',
  'client_secret',
  'access_token',
  'refresh_token',
  'token',
  'password',
  'secret',
]
// A secret key of a JSON text, up to where its value starts.
const JSON_SECRET_KEY = new RegExp(`"(?:${SECRET_KEYS.join('|')})"\\s*:\\s*`, 'gi')
const FORM_SECRET = new RegExp(`\\b((?:${SECRET_KEYS.join('|')})=)[^&\\s]*`, 'gi')
// The whole credential, whatever characters a server's tokens use.
const AUTHORIZATION = /\b(Bearer|Basic)\s+\S+/gi

export const REDACTED = '[redacted]'

// Shorter values would mask ordinary words and digits all over a message.
const MIN_KNOWN_LENGTH = 4

// Masks secrets by their keys and schemes, and every value in `known` (this run's client secret
// and tokens) wherever it appears, as is or percent-encoded: a server may echo a token anywhere.
export function redactText(text: string, known: Iterable<string> = []): string {
  let masked = text
  const values = [...known].filter((value) => value.length >= MIN_KNOWN_LENGTH)
  // Longest first, so that a token containing another secret is masked whole.
  for (const value of values.sort((a, b) => b.length - a.length)) {
    for (const form of new Set([value, encodeURIComponent(value)])) {
      masked = masked.split(form).join(REDACTED)
    }
  }
  return maskJsonValues(masked)
    .replace(FORM_SECRET, `$1${REDACTED}`)
    .replace(AUTHORIZATION, `$1 ${REDACTED}`)
}

// The value of each secret key in a JSON text, whatever its type: a number or an object holds a
// secret as well as a string does. true, false and null tell nothing and stay.
function maskJsonValues(text: string): string {
  let masked = ''
  let done = 0
  for (const match of text.matchAll(JSON_SECRET_KEY)) {
    const start = match.index + match[0].length
    // A key inside a value masked already.
    if (start <= done) continue
    const end = valueEnd(text, start)
    if (/^(?:true|false|null|)$/.test(text.slice(start, end))) continue
    masked += `${text.slice(done, start)}"${REDACTED}"`
    done = end
  }
  return masked + text.slice(done)
}

export function redactUrl(url: string): string {
  const parsed = new URL(url)
  if (parsed.password) parsed.password = REDACTED
  for (const key of [...parsed.searchParams.keys()]) {
    if (SECRET_KEYS.includes(key.toLowerCase())) parsed.searchParams.set(key, REDACTED)
  }
  return parsed.toString()
}

// The secret values one run knows (client secret, tokens), so that every error, excerpt and trace
// line it prints can be masked of them.
export class Secrets {
  private readonly values = new Set<string>()

  add(value: string | undefined): void {
    if (value) this.values.add(value)
  }

  readonly redact = (text: string): string => redactText(text, this.values)
}
