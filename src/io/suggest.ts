// Did-you-mean for a name that is not known (a command, a fixture key, a CSV column).

// Whether `typed` is most likely a typo or a shortening of one of `names`: within a third of its
// length in edits (at least one), or sharing a prefix (`phon`, `membership` for membership_type).
export function isNear(typed: string, names: readonly string[]): boolean {
  const limit = Math.max(1, Math.floor(typed.length / 3))
  return names.some(
    (name) =>
      editDistance(typed, name) <= limit ||
      (typed.length >= 2 && (name.startsWith(typed) || typed.startsWith(name))),
  )
}

// `did you mean …?` with the near names, or the known names to choose from when none is near.
export function unknownName(name: string, known: readonly string[]): string {
  const near = known.filter((candidate) => isNear(name, [candidate]))
  return near.length ? `did you mean ${near.join(', ')}?` : `known: ${known.join(', ')}`
}

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
// neighbours each cost one, so "lsit" is one edit from "list".
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[i - 2]![j - 2]! + 1)
      }
      d[i]![j] = best
    }
  }
  return d[a.length]![b.length]!
}
