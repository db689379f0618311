// Nouns register their verbs with @commander-js/extra-typings: commander itself at run time, with
// types that infer an action's arguments and options from what the command declares, so tsc
// checks the flags a verb is handed. The program (src/cli/) is typed as plain commander; a noun's
// registration crosses from one to the other here.
import type { Command as Untyped } from 'commander'
import type { Command } from '@commander-js/extra-typings'

export function typed(program: Untyped): Command {
  return program as unknown as Command
}

// The flags commander inferred for a command (F), accepted by a verb's toOptions only when they
// have exactly the keys it declares (Flags): a flag renamed, added or dropped on one side alone is
// a type error rather than a value silently undefined. Used as `toOptions<F extends Flags>(flags:
// Exactly<F, Flags>)`.
export type Exactly<F, Flags> = F &
  ([Exclude<keyof F, keyof Flags>, Exclude<keyof Flags, keyof F>] extends [never, never]
    ? unknown
    : never)
