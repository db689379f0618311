// What the diff tests share: the fixture's shapes as they write them.
import { writeFileSync } from 'node:fs'
import path from 'node:path'

export type Member = { name: string; email: string; phone?: string; membership_type: string }
export type Chamber = {
  key: string
  name: string
  type: 'hq' | 'subsidiary'
  hq?: string
  status?: string
  address: Record<string, string>
  members?: Member[]
}

// Writes a fixture (an object as JSON, a string as it is) into the directory; returns its path.
export function writeFixture(dir: string, name: string, fixture: unknown): string {
  const file = path.join(dir, name)
  writeFileSync(file, typeof fixture === 'string' ? fixture : JSON.stringify(fixture))
  return file
}
