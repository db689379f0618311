// Masks secrets before anything is traced or stored in an error (octokit's request-error model).
const SECRET_KEYS = [
  'client_secret',
  'access_token',
  'refresh_token',
  'token',
  'password',
  'secret',
]
const JSON_SECRET = new RegExp(
  `("(?:${SECRET_KEYS.join('|')})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`,
  'gi',
)
const FORM_SECRET = new RegExp(`\\b((?:${SECRET_KEYS.join('|')})=)[^&\\s]*`, 'gi')
// The whole credential, whatever characters a server's tokens use.
const AUTHORIZATION = /\b(Bearer|Basic)\s+\S+/gi

export const REDACTED = '[redacted]'

export function redactText(text: string): string {
  return text
    .replace(JSON_SECRET, `$1"${REDACTED}"`)
    .replace(FORM_SECRET, `$1${REDACTED}`)
    .replace(AUTHORIZATION, `$1 ${REDACTED}`)
}

export function redactUrl(url: string): string {
  const parsed = new URL(url)
  if (parsed.password) parsed.password = REDACTED
  for (const key of [...parsed.searchParams.keys()]) {
    if (SECRET_KEYS.includes(key.toLowerCase())) parsed.searchParams.set(key, REDACTED)
  }
  return parsed.toString()
}
