import type { Command } from 'commander'
import { typed } from '../../cmdutil/command.js'
import type { Context } from '../../cmdutil/context.js'
import { SERVER, about } from '../../cmdutil/manual.js'
import manual from './manual.md?raw'

export function registerDiff(program: Command, ctx: Context): void {
  const diffCommand = typed(program)
    .command('diff')
    .description(
      'compare a fixture (or an export) with the live directory; exit 1 when they differ',
    )
    .argument('<fixture>', 'fixture file (JSON or YAML), or - for stdin')
    .option('--members', 'also compare the members of each chamber')
    .action(async (file, flags) => {
      const { diff, toOptions } = await import('./run.js')
      await diff(toOptions(file, flags, ctx.globals), ctx)
    })
  about(diffCommand, {
    long: manual,
    topics: ['fixtures'],
    globals: [...SERVER, '--output', '--json', '--jq', '--no-pager'],
    examples: [
      ['Does the directory still match the fixture?', 'chamberctl diff fixture.yaml'],
      ['Members too; fail a CI job on drift', 'chamberctl diff directory.yaml --members'],
      ['What changed since an export', 'chamberctl diff before.yaml --members'],
      [
        'What only the server has, for a script',
        "chamberctl diff fixture.yaml --json --jq '.chambers.only_on_server[].id'",
      ],
    ],
  })
}
