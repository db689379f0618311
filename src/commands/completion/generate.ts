// `chamberctl completion <shell>`: the script for that shell, generated from the live command
// tree, so that it can never disagree with the commands it completes.
import type { Command } from 'commander'
import type { Context } from '../../cmdutil/context.js'
import { bashScript } from './bash.js'
import { fishScript } from './fish.js'
import { describeProgram } from './model.js'
import type { CommandSpec } from './model.js'
import { powershellScript } from './powershell.js'
import type { Shell } from './shells.js'
import { zshScript } from './zsh.js'

export type Options = { shell: Shell }

const RENDERERS: Record<Shell, (program: CommandSpec) => string> = {
  bash: bashScript,
  zsh: zshScript,
  fish: fishScript,
  powershell: powershellScript,
}

export function completionScript(shell: Shell, program: Command): string {
  return RENDERERS[shell](describeProgram(program))
}

export function completion(opts: Options, program: Command, ctx: Pick<Context, 'io'>): void {
  ctx.io.out.write(completionScript(opts.shell, program))
}
