import type { Command } from 'commander'
import type { Context } from '../../cmdutil/context.js'
import { integer } from '../../cmdutil/parse.js'

export function registerSeed(program: Command, ctx: Context): void {
  program
    .command('seed')
    .description('create the chambers and members of a fixture file (JSON or YAML) (v2)')
    .argument('<file>', 'fixture file, or - for stdin')
    .option('--concurrency <n>', 'requests in flight at once', integer(1, 64), 8)
    .option('--skip-existing', 'skip chambers and members that already exist (re-runs)')
    .option('--dry-run', 'print the plan and send nothing')
    .option('--offline', 'with --dry-run: only check the file, without a server')
    .option('--report <file>', 'also write the JSON report to this file')
    .option('--verbose', 'on a terminal, print every result, not only the failures')
    .option('--resume', 'continue a run that ended early, sending only records not yet created')
    .action(async (file: string, flags) => {
      const { seed } = await import('./run.js')
      await seed({ file, ...flags }, ctx)
    })
}
