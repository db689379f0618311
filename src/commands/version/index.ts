import type { Command } from 'commander'
import { typed } from '../../cmdutil/command.js'
import type { Context } from '../../cmdutil/context.js'
import { about } from '../../cmdutil/manual.js'
import { VERSION } from '../../cmdutil/version.js'

// `chamberctl version`: the same line as `--version` (contract §3), which the launcher answers
// before the CLI is loaded (start/version.ts); this is the command, for help and completion.
export function registerVersion(program: Command, ctx: Context): void {
  const versionCommand = typed(program)
    .command('version')
    .description('print the version (the same as --version)')
    .action(() => {
      ctx.io.out.write(`${VERSION}\n`)
    })
  about(versionCommand, {
    examples: [
      ['The version of this chamberctl, for a bug report', 'chamberctl version'],
      ['The API version (v1 or v2) each profile speaks', 'chamberctl auth status'],
    ],
  })
}
