// What help (help.ts), the manual (manual.ts) and docs/ (docs.ts) all know of the command tree: a
// command's path, whether it is hidden, and the help topics. Both help.ts and manual.ts import it,
// so neither imports the other's helpers.
import type { Command } from 'commander'

// The topics of `chamberctl help <topic>`, with the line the root help shows for each. Their
// text lives in src/cli/topics/ and is loaded only when asked for.
export const TOPICS = {
  environment: 'the environment variables chamberctl reads',
  'exit-codes': 'what each exit code means; errors, retries and timeouts',
  formatting: 'output formats, tables, --fields, --jq and paging',
  bulk: 'creating chambers and members, one or many; --resume',
  fixtures: 'the fixture file of seed and export',
  credentials: 'profiles, where secrets live, credentials in CI',
} as const
export type Topic = keyof typeof TOPICS

export function commandPath(command: Command): string[] {
  const names: string[] = []
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name())
  return names
}

export function isHidden(command: Command): boolean {
  // commander keeps `hidden` on the instance without a public getter.
  return (command as unknown as { _hidden?: boolean })._hidden === true
}
