import type { Command } from 'commander'
import { typed } from '../../cmdutil/command.js'
import type { Context } from '../../cmdutil/context.js'
import manual from './manual.md?raw'
import { about } from '../../cmdutil/manual.js'
import { corsOrigin, fraction, integer, listenAddress } from '../../cmdutil/parse.js'

export function registerSandbox(program: Command, ctx: Context): void {
  const sandboxCommand = typed(program)
    .command('sandbox')
    .description('run the local reference server of the chamber directory API (v1 and v2)')
    .option(
      '--host <address>',
      'IP address to listen on (0.0.0.0: every interface, reachable from the network)',
      listenAddress,
      '127.0.0.1',
    )
    .option('--port <port>', 'port to listen on (0 picks a free one)', integer(0, 65535), 4010)
    .option('--data <file>', 'keep the records in this SQLite database (created when missing)')
    .option('--empty', 'start without demo data')
    .option(
      '--demo-members <n>',
      'add n generated members to the demo chamber ch_0001 before serving',
      integer(1),
    )
    .option('--token-ttl <seconds>', 'lifetime of issued access tokens', integer(1), 3600)
    .option('--client-id <id>', 'client id to accept', 'sandbox-client')
    .option('--client-secret <secret>', 'client secret to accept', 'sandbox-secret')
    .option('--latency <ms>', 'delay every answer by this many milliseconds', integer(0), 0)
    .option('--fail-rate <rate>', 'share of requests answered 500, 503 or 429 (0..1)', fraction, 0)
    .option('--port-file <file>', 'write the port to this file once serving (atomically)')
    .option('--cors <origin>', 'let web pages on this origin call it (* for any)', corsOrigin)
    .option(
      '--strict',
      'refuse (422) what the spec leaves open instead of ignoring it with a Warning header',
    )
    .option(
      '--check',
      'serve nothing: exit 0 if a sandbox answers on --host and --port, else 1 (a health check)',
    )
    .action(async (flags) => {
      if (flags.check) {
        const { check } = await import('./check.js')
        await check(flags, ctx)
        return
      }
      const { serve } = await import('./serve.js')
      await serve(flags, ctx)
    })
  about(sandboxCommand, {
    long: manual,
    // It serves; it neither connects to a server nor prints records. --json: its start as JSON.
    globals: ['--json'],
    examples: [
      ['Serve the API on port 4010 with demo data', 'chamberctl sandbox'],

      [
        'A slow, flaky server to test scripts against',
        'chamberctl sandbox --latency 200 --fail-rate 0.1',
      ],
      ['Reachable from other machines or containers', 'chamberctl sandbox --host 0.0.0.0'],
      [
        'In CI: empty, on a free port, told in a file and as JSON',
        'chamberctl sandbox --empty --port 0 --port-file sandbox.port --json',
      ],
    ],
  })
}
