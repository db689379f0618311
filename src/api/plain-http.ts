// Credentials and tokens travel only over HTTPS, or plain HTTP that never leaves the machine.
import { isIP } from 'node:net'

// Loopback: localhost (RFC 6761), 127.0.0.0/8, ::1, and IPv4-mapped 127.x (URL writes it in hex).
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  if (isIP(host) === 4) return host.startsWith('127.')
  if (isIP(host) === 6) return host === '::1' || /^::ffff:7f[0-9a-f]{2}:/.test(host)
  return false
}

// The host a secret would be sent to in clear, or undefined when the base URL is safe for them.
export function plainHttpHost(baseUrl: string): string | undefined {
  const url = new URL(baseUrl)
  return url.protocol === 'http:' && !isLoopback(url.hostname) ? url.host : undefined
}
