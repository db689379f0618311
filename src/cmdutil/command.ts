// Nouns register their verbs with @commander-js/extra-typings: commander itself at run time, with
// types that infer an action's arguments and options from what the command declares, so tsc
// checks the flags a verb is handed. The program (src/cli/) is typed as plain commander; a noun's
// registration crosses from one to the other here.
import type { Command as Untyped } from 'commander'
import type { Command } from '@commander-js/extra-typings'

export function typed(program: Untyped): Command {
  return program as unknown as Command
}
