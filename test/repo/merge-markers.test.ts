// No file of the repository keeps the markers of a merge conflict: a rebase resolved in a hurry
// once left one in ARCHITECTURE.md, which no build, lint or type check reads.
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/run-cli.js'

// Built, installed or downloaded: not written by hand.
const SKIP = new Set(['.git', 'node_modules', 'dist', 'release', 'coverage'])
// This file names what it looks for.
const SELF = 'test/repo/merge-markers.test.ts'
const MARKER = /^(?:<{7}|>{7}) /m

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  const nested = await Promise.all(
    entries
      .filter((e) => !SKIP.has(e.name) && !e.name.startsWith('dist.'))
      .map((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]),
      ),
  )
  return nested.flat()
}

function conflicted(text: string): boolean {
  return MARKER.test(text)
}

describe('the repository', () => {
  it('recognises a conflict marker, and not a line that only looks like one', () => {
    expect(conflicted('a\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> 1234567 (subject)\n')).toBe(true)
    expect(conflicted('a\n>>>>>>> 1234567 (subject)\n')).toBe(true)
    expect(conflicted('a << b\n<<<<<<<\nx >>>>>>> y\n')).toBe(false)
  })

  it('keeps no merge-conflict marker in any file', async () => {
    const offenders: string[] = []
    for (const file of await files(ROOT)) {
      const name = relative(ROOT, file)
      if (name === SELF) continue
      const text = await readFile(file, 'utf8')
      if (conflicted(text)) offenders.push(name)
    }
    expect(offenders).toEqual([])
  })
})
