// `completion <shell>` prints a script generated from the command tree; the hidden
// `__complete <what>` is what those scripts call for values only the API knows. Both load their
// code only when they run.
import { Argument } from '@commander-js/extra-typings'
import type { Command } from 'commander'
import { typed } from '../../cmdutil/command.js'
import type { Context } from '../../cmdutil/context.js'
import manual from './manual.md?raw'
import { about } from '../../cmdutil/manual.js'
import { SHELLS } from './shells.js'

export function registerCompletion(program: Command, ctx: Context): void {
  const completionCommand = typed(program)
    .command('completion')
    .description('print the shell completion script for bash, zsh, fish or PowerShell')
    .addArgument(new Argument('<shell>', 'bash, zsh, fish or powershell').choices(SHELLS))
    .action(async (shell) => {
      const { completion } = await import('./generate.js')
      completion({ shell }, program, ctx)
    })
  about(completionCommand, {
    long: manual,
    examples: [
      ['Bash, for this shell', 'source <(chamberctl completion bash)'],
      ['Zsh, installed for good', 'chamberctl completion zsh > "${fpath[1]}/_chamberctl"'],
      ['Fish', 'chamberctl completion fish > ~/.config/fish/completions/chamberctl.fish'],
      [
        'PowerShell, for this session',
        'chamberctl completion powershell | Out-String | Invoke-Expression',
      ],
    ],
  })

  // Called by the scripts on every TAB, so it must never fail loudly: anything it does not
  // understand is answered with nothing.
  typed(program)
    .command('__complete', { hidden: true })
    .description('values for the completion scripts, one per line')
    .argument('[what]', 'chamber-ids, profiles, or words followed by the words typed')
    .allowExcessArguments()
    .allowUnknownOption()
    .action(async (what, _flags, command) => {
      if (what === 'chamber-ids') {
        const { chamberIds } = await import('./chamber-ids.js')
        await chamberIds(ctx)
      } else if (what === 'profiles') {
        const { profileNames } = await import('./profiles.js')
        await profileNames(ctx)
      } else if (what === 'words') {
        const { completeWords } = await import('./words.js')
        await completeWords(program, command.args.slice(1), ctx)
      }
    })
}
