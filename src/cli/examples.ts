// The examples every command's help ends with, kept together so that they read as one manual and
// a command added without any is caught by the help test. Keyed by the command's path.
import type { Example } from './help.js'

export const EXAMPLES: Record<string, readonly Example[]> = {
  '': [
    ['Try it against the embedded sandbox, no login needed', 'chamberctl chambers list --sandbox'],
    ['Log in once, then work with your directory', 'chamberctl login'],
    [
      'Every member of a chamber, one JSON object a line',
      'chamberctl members ls ch_0001 --all -o ndjson',
    ],
  ],
  login: [
    ['Log in, prompted for the base URL, client id and secret', 'chamberctl login'],
    [
      'Log in from a script, the secret from stdin',
      'chamberctl login --base-url https://directory.example.org/v2 --client-id ci --client-secret-stdin < secret.txt',
    ],
    ['A second profile for the staging service', 'chamberctl login --profile staging'],
  ],
  logout: [
    ['Forget the default profile’s token and secret', 'chamberctl logout'],
    ['Forget the staging profile’s', 'chamberctl logout --profile staging'],
  ],
  auth: [
    ['Is the active profile logged in?', 'chamberctl auth status'],
    ['Make the staging profile the active one', 'chamberctl auth switch staging'],
    ['A token for curl', 'chamberctl auth token'],
  ],
  'auth status': [
    ['Every profile, and whether the active one can authenticate', 'chamberctl auth status'],
    ['The staging profile', 'chamberctl auth status --profile staging'],
  ],
  'auth switch': [
    ['Use the staging profile from now on', 'chamberctl auth switch staging'],
    ['One command with another profile', 'chamberctl chambers list --profile default'],
  ],
  'auth token': [
    [
      'Call the API with curl',
      'curl -H "Authorization: Bearer $(chamberctl auth token)" https://directory.example.org/v2/chambers',
    ],
    ['The token of another profile', 'chamberctl auth token --profile staging'],
  ],
  chambers: [
    ['Every headquarters', 'chamberctl chambers ls --type hq'],
    [
      'One chamber with its members and events',
      'chamberctl chambers show ch_0001 --include members,events',
    ],
    ['Create a chamber, prompted for what is missing', 'chamberctl chambers create'],
  ],
  'chambers list': [
    ['The headquarters, by name, Z to A', 'chamberctl chambers list --type hq --sort -name'],
    ['Every chamber as CSV', 'chamberctl chambers list --all -o csv > chambers.csv'],
    ['Ids and cities only', 'chamberctl chambers ls --fields id,address.city'],
  ],
  'chambers get': [
    ['Every field of one chamber', 'chamberctl chambers get ch_0001'],
    [
      'With its members and events, as tables',
      'chamberctl chambers view ch_0001 --include members,events',
    ],
    ['As JSON for a script', 'chamberctl chambers get ch_0001 --json'],
  ],
  'chambers create': [
    ['Prompted for every value (on a terminal)', 'chamberctl chambers create'],
    [
      'A subsidiary from flags, without prompts',
      'chamberctl chambers create --name "Potsdam Chamber" --type subsidiary --hq-id ch_0001 --address-field city=Potsdam -y',
    ],
    [
      'From a JSON file, checking it first',
      'chamberctl chambers create --from-file chamber.json --dry-run',
    ],
  ],
  members: [
    ['The first page of a chamber’s members', 'chamberctl members ls ch_0001'],
    ['Add members from a CSV file', 'chamberctl members add ch_0001 --from-file members.csv'],
  ],
  'members list': [
    ['The first page, as a table', 'chamberctl members list ch_0001'],
    [
      'Every pending member, newest first',
      'chamberctl members ls ch_0001 --status pending --sort -joined_at',
    ],
    ['All e-mail addresses, one a line', 'chamberctl members list ch_0001 --all --fields email'],
    [
      'How many members are active, with jq built in',
      `chamberctl members list ch_0001 --all --jq 'map(select(.status == "active")) | length'`,
    ],
  ],
  'members add': [
    ['Prompted for what is missing (on a terminal)', 'chamberctl members add ch_0001'],
    [
      'One member from flags',
      'chamberctl members add ch_0001 --name "Ada Lovelace" --email ada@example.com --membership-type standard -y',
    ],
    [
      'Many from a CSV file: a progress bar, then what failed',
      'chamberctl members add ch_0001 --from-file members.csv',
    ],
    [
      'Every row’s result, as NDJSON',
      'chamberctl members add ch_0001 --from-file members.csv -o ndjson',
    ],
  ],
  events: [
    ['The upcoming events of a chamber', 'chamberctl events ls ch_0001 --status upcoming'],
    ['Events of March 2026', 'chamberctl events list ch_0001 --from 2026-03-01 --to 2026-03-31'],
  ],
  'events list': [
    ['The upcoming events', 'chamberctl events list ch_0001 --status upcoming'],
    ['Events of one month', 'chamberctl events ls ch_0001 --from 2026-03-01 --to 2026-03-31'],
    ['Every event as JSON', 'chamberctl events list ch_0001 --all --json'],
  ],
  seed: [
    ['Create what a fixture describes', 'chamberctl seed fixture.yaml'],
    [
      'Run it again, skipping what exists, keeping a report',
      'chamberctl seed fixture.yaml --skip-existing --report report.json',
    ],
    [
      'The plan: what would be created and what exists, send nothing',
      'chamberctl seed fixture.yaml --dry-run --skip-existing',
    ],
    ['Only check the file, without a server', 'chamberctl seed fixture.yaml --dry-run --offline'],
  ],
  export: [
    [
      'Every chamber with its members, as a seed fixture',
      'chamberctl export --members > directory.yaml',
    ],
    [
      'Copy the directory into another one',
      'chamberctl export --members --json | chamberctl seed - --profile staging',
    ],
    ['Two chambers, without members', 'chamberctl export ch_0001 ch_0005'],
    ['The active headquarters', 'chamberctl export --type hq --status active'],
  ],
  api: [
    ['A raw GET', 'chamberctl api /chambers/ch_0001'],
    ['Every page of a list, as one JSON array', 'chamberctl api /chambers --paginate'],
    [
      'The names of every chamber, through jq',
      "chamberctl api /chambers --paginate --jq '.[].name'",
    ],
    [
      'A POST with typed fields',
      'chamberctl api /chambers/ch_0001/members -f name=Ada -f email=ada@example.com -f membership_type=standard',
    ],
  ],
  sandbox: [
    ['Serve the API on port 4010 with demo data', 'chamberctl sandbox'],
    ['An empty sandbox that keeps its data', 'chamberctl sandbox --empty --data sandbox.db'],
    [
      'A slow, flaky server to test scripts against',
      'chamberctl sandbox --latency 200 --fail-rate 0.1',
    ],
  ],
  completion: [
    ['Bash, for this shell', 'source <(chamberctl completion bash)'],
    ['Zsh, installed for good', 'chamberctl completion zsh > "${fpath[1]}/_chamberctl"'],
    ['Fish', 'chamberctl completion fish > ~/.config/fish/completions/chamberctl.fish'],
  ],
  fields: [
    ['The fields of a member, for --fields', 'chamberctl fields members'],
    ['Pick some of them', 'chamberctl members list ch_0001 --fields id,email,status'],
  ],
  help: [
    ['The help of one command', 'chamberctl help members add'],
    ['The same', 'chamberctl members add --help'],
  ],
}
