// What a command says about itself beyond its arguments and options: its examples, and which of
// the global options apply to it. Declared next to each command's registration
// (src/commands/<noun>/index.ts); read by the help, `help reference` and the generated docs.
import type { Command } from 'commander'
import type { Descriptor, Resource } from '../api/resources/index.js'

// What the example shows, then the command line as a user types it: at most 76 characters a line
// (with `\` and a new line between two), so that it fits 80 columns as help prints it.
export type Example = readonly [what: string, commandLine: string]

// The global options by what they are for, as commander names them (the long flag).
export const SERVER = [
  '--profile',
  '--base-url',
  '--sandbox',
  '--timeout',
  '--insecure-http',
  '--debug',
] as const
export const OUTPUT = ['--output', '--json', '--fields', '--wide', '--jq', '--no-pager'] as const
export const INPUT = ['--no-input', '--yes'] as const
// Taken by every command that takes global options at all. So is a global option in no group
// above: a new one is listed everywhere until it says where it applies.
const EVERY = ['--no-color', '--quiet']
const GROUPED = new Set<string>([...SERVER, ...OUTPUT, ...INPUT])

type About = {
  examples?: readonly Example[]
  // What the help shows after the options: how the command behaves, in Markdown (the command's
  // manual.md beside its registration).
  long?: string
  // The help topics (`chamberctl help <topic>`) that say more about what it does.
  topics?: readonly string[]
  // The global options that apply beyond those every command takes; left out, none apply (a noun
  // that only groups its verbs, `help`, `completion`).
  globals?: readonly string[]
  // What shell completion offers where commander's choices say nothing: for an argument (by its
  // name) or an option's value (by its long flag, a global one included).
  completes?: Readonly<Record<string, Completes>>
  // A write verb: the resource whose declared create it runs (src/cmdutil/create), and whether
  // it prompts for what is missing. The suites of what every write verb does walk the tree for
  // these (test/helpers/writes.ts).
  writes?: Writes
}

export type Writes = { resource: Descriptor; prompts: boolean }

export type Completes =
  // The words it may be, asked for only when the completion scripts are built.
  | { words: () => readonly string[] }
  // A comma-separated list of the fields of a resource (or of a report's rows, by their
  // descriptor): `--fields id,address.city`.
  | { fieldsOf: Resource | Descriptor }

const ABOUT = new WeakMap<object, About>()

// A command of the tree, commander's or its typed face (@commander-js/extra-typings).
export function about<C extends object>(command: C, what: About): C {
  ABOUT.set(command, what)
  return command
}

export function examplesOf(command: Command): readonly Example[] {
  return ABOUT.get(command)?.examples ?? []
}

export function topicsOf(command: Command): readonly string[] {
  return ABOUT.get(command)?.topics ?? []
}

export function completesOf(command: Command): Readonly<Record<string, Completes>> {
  return ABOUT.get(command)?.completes ?? {}
}

export function writesOf(command: Command): Writes | undefined {
  return ABOUT.get(command)?.writes
}

export function longOf(command: Command): string | undefined {
  return ABOUT.get(command)?.long
}

// Whether a global option (its long flag) applies to the command.
export function takesGlobal(command: Command, flag: string): boolean {
  const globals = ABOUT.get(command)?.globals
  if (!globals || flag === '--version') return false
  return globals.includes(flag) || EVERY.includes(flag) || !GROUPED.has(flag)
}
