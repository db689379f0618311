// An instant for people: ISO 8601 to the second, in UTC.
export function instant(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

// "2026-11-21T14:00:00Z (in 59 min)": when a token expires, for people.
export function describeExpiry(expiresAt: number, now: number): string {
  const left = expiresAt - now
  const when = instant(expiresAt)
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
