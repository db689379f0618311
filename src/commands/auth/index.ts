import type { Command } from 'commander'
import type { Context } from '../../cmdutil/context.js'

export function registerAuth(program: Command, ctx: Context): void {
  program
    .command('login')
    .description('log in to a chamber directory and store the profile')
    .option('--client-id <id>', 'API client id (env CHAMBERCTL_CLIENT_ID)')
    .option('--client-secret-stdin', 'read the client secret from stdin')
    .option('--no-store-secret', 'keep only the token, not the secret')
    .option('--insecure-storage', 'keep the secret in the config file, not the OS keyring')
    .action(async (flags) => {
      const { login } = await import('./login.js')
      await login(flags, ctx)
    })

  program
    .command('logout')
    .description("forget the profile's token and secret")
    .action(async () => {
      const { logout } = await import('./logout.js')
      await logout(ctx)
    })

  const auth = program.command('auth').description('inspect authentication')
  auth
    .command('status')
    .description('show the profiles, which is active, and whether its credentials authenticate')
    .action(async () => {
      const { status } = await import('./status.js')
      await status(ctx)
    })
  auth
    .command('switch')
    .description('make a profile the active one (--profile overrides it for one command)')
    .argument('<profile>', 'a profile made by login')
    .action(async (profile: string) => {
      const { switchProfile } = await import('./switch.js')
      await switchProfile({ profile }, ctx)
    })
  auth
    .command('token')
    .description('print a valid access token (refreshed if needed)')
    .action(async () => {
      const { token } = await import('./token.js')
      await token(ctx)
    })
}
