// `seed --report FILE`: checked before anything is sent (contract §3), written at the end.
import { accessSync, constants, fstatSync, statSync } from 'node:fs'
import type { Stats } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { CliError, UsageError, describeSystemError } from '../../errors.js'

// The report must be writable where it is asked for, and never the fixture it reports on,
// however either is named (a link, a second name of the same file, the fixture given on stdin):
// files are compared by device and inode. `stdin` is the stream a `-` fixture is read from.
export function checkReport(report: string, fixture: string, stdin: unknown): void {
  const fail = (why: string) => {
    throw new UsageError(`--report ${report}: ${why}; nothing was sent`)
  }
  const found = statSync(report, { throwIfNoEntry: false })
  if (found?.isDirectory()) fail('is a directory; name a file to write the report to')
  if (found && isSameFile(found, fixtureStats(fixture, stdin))) {
    fail(`is the fixture being seeded (${fixture === '-' ? 'stdin' : fixture}); name another file`)
  }
  const parent = path.dirname(path.resolve(report))
  if (!found && !statSync(parent, { throwIfNoEntry: false })?.isDirectory()) {
    fail(`the directory ${parent} does not exist`)
  }
  try {
    accessSync(found ? report : parent, constants.W_OK)
  } catch (error) {
    fail(`cannot be written: ${describeSystemError(error)}`)
  }
}

function fixtureStats(fixture: string, stdin: unknown): Stats | undefined {
  if (fixture !== '-') return statSync(fixture, { throwIfNoEntry: false })
  const fd = (stdin as { fd?: unknown } | undefined)?.fd
  return typeof fd === 'number' ? fstatSync(fd) : undefined
}

function isSameFile(a: Stats, b: Stats | undefined): boolean {
  return b !== undefined && a.dev === b.dev && a.ino === b.ino
}

export async function saveReport(file: string, report: object): Promise<void> {
  try {
    await writeFile(file, `${JSON.stringify(report, null, 2)}\n`)
  } catch (error) {
    throw new CliError(`cannot write the report to ${file}: ${(error as Error).message}`)
  }
}
