import type { Command } from 'commander'
import { typed } from '../../cmdutil/command.js'
import type { Context } from '../../cmdutil/context.js'
import { OUTPUT, SERVER, about } from '../../cmdutil/manual.js'
import loginManual from './login.md?raw'

export function registerAuth(program: Command, ctx: Context): void {
  const loginCommand = typed(program)
    .command('login')
    .description('log in to a chamber directory and store the profile')
    .option('--client-id <id>', 'API client id (env CHAMBERCTL_CLIENT_ID)')
    .option('--client-secret-stdin', 'read the client secret from stdin')
    .option('--no-store-secret', 'keep only the token, not the secret')
    .option('--insecure-storage', 'keep the secret in the config file, not the OS keyring')
    .action(async (flags) => {
      const { login, toOptions } = await import('./login.js')
      await login(toOptions(flags, ctx.globals), ctx)
    })
  about(loginCommand, {
    topics: ['credentials'],
    long: loginManual,
    globals: ['--profile', '--base-url', '--timeout', '--insecure-http', '--debug', '--no-input'],
    examples: [
      ['Log in, prompted for the base URL, client id and secret', 'chamberctl login'],
      [
        'Log in from a script, the secret from stdin',
        'chamberctl login --base-url https://directory.example.org/v2 \\\n  --client-id ci --client-secret-stdin < secret.txt',
      ],
      ['A second profile for the staging service', 'chamberctl login --profile staging'],
    ],
  })

  const logoutCommand = typed(program)
    .command('logout')
    .description("forget the profile's token and secret")
    .action(async () => {
      const { logout } = await import('./logout.js')
      await logout(ctx)
    })
  about(logoutCommand, {
    topics: ['credentials'],
    globals: ['--profile'],
    examples: [
      ['Forget the default profile’s token and secret', 'chamberctl logout'],
      ['Forget the staging profile’s', 'chamberctl logout --profile staging'],
    ],
  })

  const auth = about(typed(program).command('auth').description('inspect authentication'), {
    examples: [
      ['Is the active profile logged in?', 'chamberctl auth status'],
      ['Make the staging profile the active one', 'chamberctl auth switch staging'],
      ['A token for curl', 'chamberctl auth token'],
    ],
  })
  const statusCommand = auth
    .command('status')
    .description('show the profiles, which is active, and whether its credentials authenticate')
    .action(async () => {
      const { status } = await import('./status.js')
      await status(ctx)
    })
  about(statusCommand, {
    topics: ['credentials'],
    globals: [...SERVER, ...OUTPUT],
    examples: [
      ['Every profile, and whether the active one can authenticate', 'chamberctl auth status'],
      ['The staging profile', 'chamberctl auth status --profile staging'],
    ],
  })
  const switchCommand = auth
    .command('switch')
    .description('make a profile the active one (--profile overrides it for one command)')
    .argument('[profile]', 'a profile made by login; on a terminal, offered when left out')
    .action(async (profile) => {
      const { switchProfile } = await import('./switch.js')
      await switchProfile({ profile }, ctx)
    })
  about(switchCommand, {
    topics: ['credentials'],
    globals: [],
    examples: [
      ['Use the staging profile from now on', 'chamberctl auth switch staging'],
      ['Pick one of the profiles from a list', 'chamberctl auth switch'],
      ['One command with another profile', 'chamberctl chambers list --profile default'],
    ],
  })
  const tokenCommand = auth
    .command('token')
    .description('print a valid access token (refreshed if needed)')
    .action(async () => {
      const { token } = await import('./token.js')
      await token(ctx)
    })
  about(tokenCommand, {
    topics: ['credentials'],
    globals: SERVER,
    examples: [
      [
        'Call the API with curl',
        'curl -H "Authorization: Bearer $(chamberctl auth token)" \\\n  https://directory.example.org/v2/chambers',
      ],
      ['The token of another profile', 'chamberctl auth token --profile staging'],
    ],
  })
}
