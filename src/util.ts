// Small helpers every layer uses. This module imports nothing, so it sits below errors.ts, at the
// bottom of the layers (test/behaviour/layers.test.ts).

// A JSON object: not null, not an array.
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

// A count as every line of chamberctl writes it: 4,323.
export function count(n: number): string {
  return n.toLocaleString('en-US')
}

// The noun for `n` of it: 1 chamber, 2 chambers (only nouns whose plural adds an s).
export function plural(n: number, noun: string): string {
  return n === 1 ? noun : `${noun}s`
}
