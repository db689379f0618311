// Where a client on this machine reaches a server listening on `host`: a wildcard address (every
// interface) is not one to connect to, its loopback is.
export function clientOrigin(host: string, port: number): string {
  const target = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host
  return `http://${target.includes(':') ? `[${target}]` : target}:${port}`
}
