// The top-level commands, by name: program.ts registers them, and the launcher keys the V8 code
// cache by them (src/start/code-cache.ts) before any of the CLI is loaded. test/cli/program.test.ts
// checks that the two agree.
export const TOP_LEVEL_COMMANDS = [
  'login',
  'logout',
  'auth',
  'chambers',
  'members',
  'events',
  'seed',
  'export',
  'diff',
  'report',
  'api',
  'sandbox',
  'fields',
  'version',
  'completion',
  'help',
  // Hidden: what the completion scripts call for chamber ids and profiles (commands/completion).
  '__complete',
] as const

export type TopLevelCommand = (typeof TOP_LEVEL_COMMANDS)[number]
