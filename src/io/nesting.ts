import { InputError } from './input-error.js'

// Records are a few levels deep (a chamber, its address, its members). A document nested far
// deeper is a mistake or an attack: JSON.parse takes it, but every recursive walk afterwards
// (validation, JSON.stringify) would overflow the stack.
export const MAX_DEPTH = 64

// Walks with an explicit stack, so that checking cannot overflow either.
export function checkNesting(value: unknown, source: string): void {
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length) {
    const [node, depth] = stack.pop()!
    if (typeof node !== 'object' || node === null) continue
    if (depth > MAX_DEPTH) {
      throw new InputError(`${source}: nested more than ${MAX_DEPTH} levels deep`, { source })
    }
    for (const child of Object.values(node)) stack.push([child, depth + 1])
  }
}
