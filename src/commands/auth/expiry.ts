// "2026-11-21T14:00:00.000Z (in 59 min)": when a token expires, for people.
export function describeExpiry(expiresAt: number, now: number): string {
  const left = expiresAt - now
  const when = new Date(expiresAt).toISOString()
  if (left <= 0) return `${when} (expired)`
  const minutes = Math.round(left / 60_000)
  const span =
    minutes < 1
      ? 'under a minute'
      : minutes < 120
        ? `${minutes} min`
        : `${Math.round(minutes / 60)} h`
  return `${when} (in ${span})`
}
