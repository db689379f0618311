// The one e-mail rule of the CLI and the sandbox: an address an SMTP server could be given as a
// mailbox (RFC 5321 §4.1.2, with RFC 6531's UTF-8), within RFC 5321's length limits. No comments,
// folding whitespace or obsolete RFC 5322 forms: they are header syntax, not an address. Why this
// is written here rather than taken from a package: src/api/README.md, "E-mail addresses".
import { domainToASCII } from 'node:url'

// RFC 5321 §4.5.3.1: 64 octets of local part; a path of 256 octets with its angle brackets.
const MAX_LOCAL_OCTETS = 64
const MAX_ADDRESS_OCTETS = 254
// RFC 1035 §2.3.4, written as text: 253 octets, 63 a label.
const MAX_DOMAIN_OCTETS = 253

const ATOM = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~\u0080-\u{10FFFF}]+$/u
// Anything outside ASCII is a letter of an address (RFC 6531), but for spaces, controls and a
// lone surrogate, which no mail system can carry.
const UNPRINTABLE = /(?![\x20-\x7e])[\p{White_Space}\p{Cc}\p{Cs}]/u
const LDH_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/
const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/

const octets = (text: string) => Buffer.byteLength(text, 'utf8')

// The common address in one test: dot-atoms of ASCII, `@`, LDH labels, within the limits (a
// character is an octet in ASCII). Every address it takes, the whole rule takes
// (test/api/email.test.ts); a million members are checked on export.
const COMMON =
  /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+(?:\.[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+)*@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/

export function isCommonAddress(address: string): boolean {
  return (
    address.length <= MAX_ADDRESS_OCTETS &&
    address.lastIndexOf('@') <= MAX_LOCAL_OCTETS &&
    COMMON.test(address)
  )
}

export function isEmailAddress(address: string): boolean {
  return isCommonAddress(address) || isMailbox(address)
}

// The whole rule.
export function isMailbox(address: string): boolean {
  if (octets(address) > MAX_ADDRESS_OCTETS || UNPRINTABLE.test(address)) return false
  const at = address.lastIndexOf('@')
  if (at < 0) return false
  const local = address.slice(0, at)
  const domain = address.slice(at + 1)
  if (octets(local) > MAX_LOCAL_OCTETS) return false
  const localOk = local.startsWith('"') ? quotedContent(local) !== undefined : isDotString(local)
  return localOk && (domain.startsWith('[') ? isAddressLiteral(domain) : !!asciiDomain(domain))
}

// The key two addresses are compared by: the same key, the same mailbox. The domain is
// case-insensitive and an internationalised one is the same as its A-label form (IDNA); the local
// part is compared in Unicode NFC and, as the directory always has, in any letter case; a quoted
// local part that needs no quotes is the same as the bare one. Text that is not an address is
// compared trimmed, in NFC and lower case. Stored and sent addresses are never rewritten.
export function emailKey(address: string): string {
  const trimmed = address.trim()
  // Printable ASCII without quotes is its own key in lower case: the common case, a million
  // times over when the sandbox fills a chamber.
  if (/^[!#-~]*$/.test(trimmed)) return trimmed.toLowerCase()
  const text = trimmed.normalize('NFC')
  const at = text.lastIndexOf('@')
  if (at < 0) return text.toLowerCase()
  let local = text.slice(0, at)
  const content = local.startsWith('"') ? quotedContent(local) : undefined
  if (content !== undefined && isDotString(content)) local = content
  const domain = text.slice(at + 1)
  return `${local.toLowerCase()}@${asciiDomain(domain) ?? domain.toLowerCase()}`
}

function isDotString(local: string): boolean {
  return local.split('.').every((atom) => ATOM.test(atom))
}

// RFC 5321's Quoted-string: printable ASCII but `"` and `\`, any UTF-8 beyond ASCII (RFC 6531),
// and `\` before printable ASCII. Returns the unescaped text, or undefined for no quoted string.
function quotedContent(local: string): string | undefined {
  if (local.length < 2 || !local.endsWith('"')) return undefined
  let content = ''
  for (let i = 1; i < local.length - 1; i++) {
    let char = local[i]!
    if (char === '\\') {
      char = local[++i]!
      if (i === local.length - 1 || char < ' ' || char > '~') return undefined
    } else if (char === '"' || char < ' ' || char === '\x7f') {
      return undefined
    }
    content += char
  }
  return content
}

// A domain name in its ASCII form, lower case, or undefined when it cannot be one: LDH labels of
// at most 63 octets and 253 in all; a label with letters beyond ASCII is an IDNA U-label, turned
// into its A-label (`bücher` → `xn--bcher-kva`) by Node's UTS #46 (node:url).
function asciiDomain(domain: string): string | undefined {
  const labels = domain.split('.').map((label) => {
    if (/^\p{ASCII}*$/u.test(label)) return LDH_LABEL.test(label) ? label : undefined
    // Beside letters beyond ASCII, only what an ASCII label may hold.
    if (!/^(?:[A-Za-z0-9-]|\P{ASCII})+$/u.test(label)) return undefined
    // RFC 5891 §4.2.3.1: no hyphen at either end, none in the 3rd and 4th places.
    if (/^-|-$|^..--/.test(label)) return undefined
    const ascii = domainToASCII(label)
    return LDH_LABEL.test(ascii) ? ascii : undefined
  })
  if (labels.some((label) => label === undefined)) return undefined
  const ascii = labels.join('.').toLowerCase()
  return ascii.length <= MAX_DOMAIN_OCTETS ? ascii : undefined
}

// RFC 5321 §4.1.3: `[` IPv4 `]` or `[IPv6:` IPv6 `]`. No other tag is registered, so a general
// address literal could reach no one.
function isAddressLiteral(domain: string): boolean {
  if (!domain.endsWith(']')) return false
  const literal = domain.slice(1, -1)
  return literal.startsWith('IPv6:') ? isIPv6(literal.slice(5)) : isIPv4(literal)
}

function isIPv4(text: string): boolean {
  const parts = text.split('.')
  return parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) < 256)
}

// IPv6-full, IPv6-comp, IPv6v4-full and IPv6v4-comp: eight groups (six before an IPv4 address),
// or `::` standing for at least two zero groups beside at most six (four) written ones.
function isIPv6(text: string): boolean {
  let hex = text
  let groups = 8
  const last = text.lastIndexOf(':')
  if (text.slice(last + 1).includes('.')) {
    if (last < 0 || !isIPv4(text.slice(last + 1))) return false
    hex = text.slice(0, text.endsWith('::', last + 1) ? last + 1 : last)
    groups = 6
  }
  const halves = hex.split('::')
  if (halves.length > 2) return false
  const written = halves.flatMap((half) =>
    half === '' && halves.length === 2 ? [] : half.split(':'),
  )
  if (!written.every((group) => HEX_GROUP.test(group))) return false
  return halves.length === 2 ? written.length <= groups - 2 : written.length === groups
}
