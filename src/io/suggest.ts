import { closestMatch } from 'leven'

// For a name that is not known: the known one it is most likely a typo or a shortening of
// (`adress`, `emial`, `membership` for membership_type), or the list to choose from when none is
// close (two edits, or a third of a long name's letters, is as far as a guess goes).
export function unknownName(name: string, known: readonly string[]): string {
  const maxDistance = name.length <= 3 ? 1 : Math.max(2, Math.floor(name.length / 3))
  const match =
    closestMatch(name, known, { maxDistance }) ??
    (name.length >= 4 ? known.find((k) => k.startsWith(name)) : undefined)
  return match ? `did you mean ${match}?` : `known: ${known.join(', ')}`
}
