// The duplicate finder's index: a hash of each member's e-mail key in the order the members were
// read, 8 bytes a member in a Float64Array that doubles as it fills, and nothing else; no key is
// held. Positions whose hash another shares are the candidates, which the finder reads again and
// compares by their exact keys, so that two keys of the same hash never make a false duplicate.

export type Hash = (key: string) => number

// cyrb53 (bryc, public domain): two 32-bit multiply-xor lanes mixed into 53 bits, the most a
// double holds exactly. At a million keys two different ones share a hash about once in 18,000
// runs; when they do, the exact comparison drops the pair.
export function hash53(key: string): number {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < key.length; i++) {
    const char = key.charCodeAt(i)
    h1 = Math.imul(h1 ^ char, 2654435761)
    h2 = Math.imul(h2 ^ char, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return 4294967296 * (2097151 & h2) + (h1 >>> 0)
}

export class KeyIndex {
  private hashes = new Float64Array(1024)
  size = 0

  constructor(readonly hash: Hash = hash53) {}

  // The key's position: the number of keys added before it.
  add(key: string): number {
    if (this.size === this.hashes.length) {
      const grown = new Float64Array(this.hashes.length * 2)
      grown.set(this.hashes)
      this.hashes = grown
    }
    this.hashes[this.size] = this.hash(key)
    return this.size++
  }

  // The hashes that more than one position has, and those positions in order. A sorted copy
  // finds them (another 8 bytes a member, for as long as the sort takes).
  candidates(): { hashes: Set<number>; positions: number[] } {
    const sorted = this.hashes.slice(0, this.size).sort()
    const hashes = new Set<number>()
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i] === sorted[i - 1]) hashes.add(sorted[i]!)
    }
    const positions: number[] = []
    if (hashes.size > 0) {
      for (let i = 0; i < this.size; i++) if (hashes.has(this.hashes[i]!)) positions.push(i)
    }
    return { hashes, positions }
  }

  // What the index holds, in bytes (for --debug and the benchmark).
  get bytes(): number {
    return this.hashes.byteLength
  }
}
