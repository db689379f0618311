// Argument parsers for commander options: a bad value becomes a one-line usage error (exit 2).
import { isIP } from 'node:net'
import { InvalidArgumentError } from 'commander'

export function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value)
    if (!/^\d+$/.test(value.trim()) || n < min || n > max) {
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `expected a whole number of at least ${min}`
          : `expected a whole number from ${min} to ${max}`,
      )
    }
    return n
  }
}

export function fraction(value: string): number {
  const n = Number(value)
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new InvalidArgumentError('expected a number from 0 to 1')
  }
  return n
}

// A number of seconds, 0 included (--timeout 0: no limit).
export function seconds(value: string): number {
  const n = Number(value)
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) {
    throw new InvalidArgumentError('expected a number of seconds (0 for none)')
  }
  return n
}

// For repeatable `key=value` options; values stay strings (a postal code keeps its leading zero).
export function keyValue(value: string, previous: [string, string][] = []): [string, string][] {
  const at = value.indexOf('=')
  if (at <= 0) throw new InvalidArgumentError('expected key=value')
  return [...previous, [value.slice(0, at).trim(), value.slice(at + 1)]]
}

// An address of this machine to listen on: an IP address (0.0.0.0 and :: are every interface), or
// localhost. A host name would be looked up, and could name another machine.
export function listenAddress(value: string): string {
  if (isIP(value) === 0 && value !== 'localhost') {
    throw new InvalidArgumentError('expected an IP address such as 127.0.0.1, 0.0.0.0 or ::1')
  }
  return value
}

// A web origin a browser sends (scheme://host[:port], nothing after it), or * for any.
export function corsOrigin(value: string): string {
  if (value === '*') return value
  let url: URL | undefined
  try {
    url = new URL(value)
  } catch {
    url = undefined
  }
  const bare = url && !url.username && !url.password && url.pathname === '/' && !url.search
  if (!url || !bare || !value.includes('://') || !/^https?:$/.test(url.protocol) || url.hash) {
    throw new InvalidArgumentError('expected an origin such as http://localhost:3000, or *')
  }
  return url.origin
}
