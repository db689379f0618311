// `chamberctl __complete chamber-ids`: the chamber ids of the active server, one per line as
// id<TAB>name, for the completion scripts. It runs on a TAB, so it answers from a cache of up to
// a minute when it can, gives the server one second in all, never prompts or traces, and prints
// nothing at all when anything goes wrong.
import type { Client } from '../../api/client.js'
import { idAndName } from '../../api/answers.js'
import { paginate } from '../../api/paginate.js'
import { idProblem } from '../../api/paths.js'
import { clientFor, resolveConnection } from '../../cmdutil/connect.js'
import type { Context } from '../../cmdutil/context.js'
import type { Timers } from '../../cmdutil/waiting.js'
import { configDir } from '../../config/dir.js'
import { escapeForTerminal } from '../../io/terminal-text.js'
import { readCache, writeCache } from './cache.js'
import type { CachedChamber } from './cache.js'

// For everything: reading the profile, the token, every page. Past it the lookup is abandoned.
export const BUDGET_MS = 1000
// Enough for any list a person would page through with TAB; five pages of 100.
export const MAX_CHAMBERS = 500

// Where the ids come from: `key` names the server in the cache, `list` asks it, `abandon`
// drops whatever is still in flight once the answer is no longer wanted.
type Source = { key: string; list(): Promise<CachedChamber[]>; abandon(): void }

export async function chamberIds(ctx: Context): Promise<void> {
  ctx.io.out.write((await chamberChoices(ctx)).map(line).join(''))
}

// The chambers to offer, or none at all when anything goes wrong.
export async function chamberChoices(ctx: Context): Promise<CachedChamber[]> {
  ctx.globals = {
    ...ctx.globals,
    canPrompt: false,
    debug: false,
    quiet: true,
    timeoutMs: Math.min(ctx.globals.timeoutMs, BUDGET_MS),
  }
  try {
    return await lookup(ctx)
  } catch {
    return []
  }
}

async function lookup(ctx: Context): Promise<CachedChamber[]> {
  const dir = configDir(ctx.io.env)
  const budget = deadline(BUDGET_MS, ctx.timers)
  let source: Source | undefined
  try {
    source = await budget.race(ctx.globals.sandbox ? sandboxSource(ctx) : serverSource(ctx))
    const cached = await readCache(dir, source.key, Date.now())
    if (cached) return cached
    const chambers = await budget.race(source.list())
    await writeCache(dir, source.key, chambers, Date.now()).catch(() => {})
    return chambers
  } finally {
    budget.clear()
    source?.abandon()
  }
}

// The embedded sandbox runs in this process and answers at once; main closes it afterwards.
async function sandboxSource(ctx: Context): Promise<Source> {
  return {
    key: `sandbox:${ctx.globals.sandbox}`,
    list: async () => listChambers(await ctx.api()),
    abandon: () => {},
  }
}

// The client ctx.api() would build (same connection and credentials, and a token it obtains is
// saved to the profile the same way), but on a dispatcher of its own that can be destroyed, and
// with backoff timers that do not hold the process (closing it destroys its dispatcher): an abandoned request or retry must not keep
// the shell waiting after the deadline.
async function serverSource(ctx: Context): Promise<Source> {
  const connection = await resolveConnection(ctx)
  const client = await clientFor(ctx, connection, {
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()),
  })
  return {
    key: connection.baseUrl.replace(/\/+$/, ''),
    list: () => listChambers(client),
    abandon: () => void client.close().catch(() => {}),
  }
}

async function listChambers(client: Client): Promise<CachedChamber[]> {
  const chambers: CachedChamber[] = []
  const pages = paginate((page) => client.chambers.list(page), { limit: MAX_CHAMBERS })
  for await (const chamber of pages) {
    const choice = idAndName(chamber)
    // An id a shell would split cannot be completed as one word; one chamberctl refuses
    // (`..`, control characters) is no use completed.
    if (!choice || /\s/.test(choice.id) || idProblem(choice.id)) continue
    chambers.push(choice)
  }
  return chambers
}

function line(chamber: CachedChamber): string {
  const label = chamberLabel(chamber)
  return label ? `${chamber.id}\t${label}\n` : `${chamber.id}\n`
}

// Shown by the shell on the terminal; escaped, a tab cannot split the line either.
export function chamberLabel({ name }: CachedChamber): string | undefined {
  return (name === undefined ? undefined : escapeForTerminal(name).trim()) || undefined
}

// Holds the process until it fires: the lookup's backoff timers do not.
const HOLDING: Timers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (timer) => clearTimeout(timer as NodeJS.Timeout),
}

// One timer for the whole lookup: each step races it, and the first to lose ends the lookup.
function deadline(ms: number, timers: Timers = HOLDING) {
  let timer: unknown
  const expired = new Promise<never>((_, reject) => {
    timer = timers.set(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  expired.catch(() => {})
  return {
    race: <T>(work: Promise<T>): Promise<T> => Promise.race([work, expired]),
    clear: () => timers.clear(timer),
  }
}
