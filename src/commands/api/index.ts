import type { Command } from 'commander'
import { typed } from '../../cmdutil/command.js'
import type { Context } from '../../cmdutil/context.js'
import manual from './manual.md?raw'
import { SERVER, about } from '../../cmdutil/manual.js'
import { keyValue } from '../../cmdutil/parse.js'

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value]
}

export function registerApi(program: Command, ctx: Context): void {
  const apiCommand = typed(program)
    .command('api')
    .description('make an authenticated request to any API path and print the answer')
    .argument('<path>', 'path under the base URL, e.g. /chambers?page=2')
    .option('-X, --method <method>', 'HTTP method (default GET, or POST when fields are given)')
    .option('-f, --raw-field <key=value>', 'a string field; repeatable', keyValue)
    .option(
      '-F, --field <key=value>',
      'a typed field: number, true, false, null, @file; repeatable',
      keyValue,
    )
    .option('--input <file>', 'the request body, as is (- for stdin)')
    .option('-H, --header <header>', "a request header, 'Name: value'; repeatable", collect)
    .option('--paginate', 'follow every page and print one JSON array of all records')
    .option('-i, --include', 'print the status line and the response headers first')
    .action(async (path, flags) => {
      const { api, toOptions } = await import('./request.js')
      await api(toOptions(path, flags), ctx)
    })
  about(apiCommand, {
    topics: ['exit-codes', 'formatting'],
    long: manual,
    // The body as the server sent it: JSON (-o ndjson, one record a line with --paginate), YAML
    // (-o yaml) and jq.
    globals: [...SERVER, '--output', '--json', '--jq'],
    examples: [
      ['A raw GET', 'chamberctl api /chambers/ch_0001'],
      ['Every page of a list, as one JSON array', 'chamberctl api /chambers --paginate'],
      [
        'The names of every chamber, through jq',
        "chamberctl api /chambers --paginate --jq '.[].name'",
      ],
      [
        'A POST with typed fields',
        'chamberctl api /chambers/ch_0001/members -f name=Ada \\\n  -f email=ada@example.com -f membership_type=standard',
      ],
    ],
  })
}
