// Named profiles (base URL, client credentials) in <config dir>/config.json, laid out as
// { "profiles": { "<name>": Profile }, "active_profile": "<name>" }. The active profile is the one
// `auth switch` chose; `--profile` and CHAMBERCTL_PROFILE override it for one command. Each
// profile's cached tokens are in a file of their own (tokens.ts), so that refreshing a token
// never rewrites this file.
//
// Concurrency: the file is written atomically (writePrivateFile in dir.ts), so a reader always
// sees either the old or the new file, never a torn one. Every mutation here (login, logout, auth
// switch, and caching a token, which must belong to the profile's current login) re-reads the
// file under a short cross-process lock (proper-lockfile) and writes the whole `profiles` object
// back: two processes updating different profiles both keep their change.
//
// Reading is a plain read of the file: every command that talks to the API reads its profile.
import { chmodSync, lstatSync, readFileSync } from 'node:fs'
import type { Stats } from 'node:fs'
import path from 'node:path'
import { CliError, UsageError } from '../errors.js'
import { isPlainObject } from '../util.js'
import { describeFsError, ensureConfigDir } from './dir.js'
import { parseJsonObject, writeKeys } from './json-file.js'
import { TokenCache } from './tokens.js'
import type { ProfileToken, TokenOwner } from './tokens.js'

export type Profile = {
  base_url?: string
  client_id?: string
  // The secret in this file (--insecure-storage, or no OS keyring at login), or the account under
  // which the OS keyring holds it.
  client_secret?: string
  keyring_account?: string
  // The login generation: a random id each `login` writes and `logout` removes. Cached tokens
  // carry it, so a token obtained under one login is never used or stored under another.
  login?: string
}

export type ProfilePatch = Partial<Profile> | ((current: Profile | undefined) => Profile)

export type LockOptions = {
  // A lock older than this was left by a process that died holding it (a live holder keeps it
  // fresh); proper-lockfile's floor is 2 s.
  staleMs?: number
  // Give up after about this long.
  timeoutMs?: number
}

const LOCK_DEFAULTS = { staleMs: 5_000, timeoutMs: 10_000 }
// A token request waited for: its holder refreshes the lock's time while it lives (at half of
// staleMs), so one that died is taken over after staleMs; one alive is waited for at most waitMs.
const REFRESH_LOCK = { staleMs: 10_000, waitMs: 30_000 }
const LOCK_RETRY_MS = 40

export type ProfileStoreOptions = {
  lock?: LockOptions
  platform?: NodeJS.Platform
  // Told, in one line, of a token cache that could not be read and was discarded.
  notice?: (message: string) => void
}

const PROFILE_NAME = /^[A-Za-z0-9_.-]{1,64}$/
export const DEFAULT_PROFILE = 'default'
const ACTIVE_KEY = 'active_profile'
const STRING_FIELDS = [
  'base_url',
  'client_id',
  'client_secret',
  'keyring_account',
  'login',
] as const
const KEPT_BY_FORGET = ['base_url', 'client_id'] as const

export function isProfileName(name: string): boolean {
  return PROFILE_NAME.test(name)
}

export function assertProfileName(name: string): string {
  if (!isProfileName(name)) {
    throw new UsageError(
      `invalid profile name ${JSON.stringify(name)}: use 1 to 64 letters, digits, '_', '.' or '-'`,
    )
  }
  return name
}

export class ProfileStore {
  private constructor(
    private readonly dir: string,
    readonly path: string,
    private readonly lockOptions: LockOptions,
    private readonly notice?: (message: string) => void,
  ) {}

  static open(dir: string, options: ProfileStoreOptions = {}): ProfileStore {
    const platform = options.platform ?? process.platform
    ensureConfigDir(dir, platform)
    const file = path.join(dir, 'config.json')
    if (platform !== 'win32') tightenFileMode(file)
    const store = new ProfileStore(dir, file, options.lock ?? {}, options.notice)
    // Report a malformed file when the store is opened rather than halfway through a command.
    store.list()
    return store
  }

  get(name: string): Profile | undefined {
    assertProfileName(name)
    const profiles = this.read()
    return Object.hasOwn(profiles, name) ? profiles[name] : undefined
  }

  list(): Record<string, Profile> {
    return this.read()
  }

  // The tokens cached for a profile: by base URL (see tokenKey), since its credentials serve
  // every base URL on the login's origin and each version of the API has its own /auth/token.
  tokens(name: string): TokenCache {
    assertProfileName(name)
    return new TokenCache(path.join(this.dir, 'tokens'), name, this.notice)
  }

  // The profile a command uses: the one named for it (--profile, CHAMBERCTL_PROFILE), else the one
  // `auth switch` made active, else `default`. A name that is not a profile is a usage error naming
  // those there are, unless the command is `login` (`create`), the only one that makes profiles.
  // `default` alone may be missing: that is simply "not logged in".
  select(named: string | undefined, options: { create?: boolean } = {}): string {
    const name = assertProfileName(named ?? this.active() ?? DEFAULT_PROFILE)
    if (options.create || name === DEFAULT_PROFILE || Object.hasOwn(this.read(), name)) return name
    throw unknownProfile(name, Object.keys(this.read()))
  }

  // The profile `auth switch` chose, if any.
  active(): string | undefined {
    const top = guardRead(this.path, () => parseTopLevel(readConfigFile(this.path), this.path))
    const active = top[ACTIVE_KEY]
    if (active === undefined) return undefined
    if (typeof active !== 'string' || !PROFILE_NAME.test(active)) {
      throw invalid(this.path, `"${ACTIVE_KEY}" is not a profile name`)
    }
    return active
  }

  async switchTo(name: string): Promise<void> {
    assertProfileName(name)
    if (!Object.hasOwn(this.read(), name)) throw unknownProfile(name, Object.keys(this.read()))
    await this.locked(() => this.write({ [ACTIVE_KEY]: name }))
  }

  async save(name: string, profile: Profile): Promise<void> {
    assertProfileName(name)
    await this.mutate((profiles) => {
      profiles[name] = withoutUndefined(profile)
      return true
    })
  }

  // Returns the profile as written. Keys set to `undefined` in the patch are removed.
  async update(name: string, patch: ProfilePatch): Promise<Profile> {
    assertProfileName(name)
    let written: Profile = {}
    await this.mutate((profiles) => {
      const current = Object.hasOwn(profiles, name) ? profiles[name] : undefined
      written = withoutUndefined(
        typeof patch === 'function' ? patch(current) : { ...current, ...patch },
      )
      profiles[name] = written
      return true
    })
    return written
  }

  // A new login of `name`: the profile as given, with a login id of its own, and `token`, got
  // with its credentials for `baseUrl`, as the only one in its cache (the former client's tokens
  // are no use). One lock for both: a refresh of the former login that completes meanwhile is
  // discarded (saveToken).
  async login(name: string, profile: Profile, baseUrl: string, token: ProfileToken): Promise<void> {
    assertProfileName(name)
    // node:crypto only here: every command reads this module, and only login needs an id.
    const id = process.getBuiltinModule('node:crypto').randomUUID()
    const written = { ...withoutUndefined(profile), login: id }
    await this.mutate((profiles) => {
      profiles[name] = written
      const owner = tokenOwner(written)
      if (owner) this.tokens(name).write(baseUrl, token, owner, { only: true })
      return true
    })
  }

  // Caches a token obtained with the credentials of `owner`, unless that is no longer the
  // profile's login (a `logout` or a new `login` came in between): resolves to whether it was kept.
  async saveToken(
    name: string,
    baseUrl: string,
    token: ProfileToken,
    owner: TokenOwner,
  ): Promise<boolean> {
    assertProfileName(name)
    return this.locked(() => {
      const current = tokenOwner(this.get(name))
      if (current?.client_id !== owner.client_id || current.login !== owner.login) return false
      this.tokens(name).write(baseUrl, token, owner)
      return true
    })
  }

  // Runs `refresh` while no other process refreshes this profile's tokens, so that processes
  // whose token expired together ask for one new token, not one each: the others wait for its
  // file. The wait is bounded: a holder that died is taken over once its lock is stale, one that
  // takes too long is no longer waited for (and `refresh` runs regardless), and a lock that
  // cannot be taken at all costs only the extra token request.
  async refreshing<T>(name: string, refresh: () => Promise<T>): Promise<T> {
    const cache = this.tokens(name)
    const { staleMs, waitMs } = REFRESH_LOCK
    let release: (() => Promise<void>) | undefined
    try {
      ensureConfigDir(path.dirname(cache.path))
      const lockfile = (await import('proper-lockfile')).default
      release = await lockfile.lock(cache.path, {
        realpath: false,
        lockfilePath: `${cache.path}.refresh.lock`,
        stale: staleMs,
        retries: retriesFor(waitMs),
        onCompromised: () => {},
      })
    } catch (error) {
      if (error instanceof CliError) throw error
    }
    try {
      return await refresh()
    } finally {
      await release?.().catch(() => {})
    }
  }

  // Resolves to false when there was no such profile.
  async remove(name: string): Promise<boolean> {
    assertProfileName(name)
    return this.mutate((profiles) => {
      this.tokens(name).clear()
      if (!Object.hasOwn(profiles, name)) return false
      delete profiles[name]
      return true
    })
  }

  // Keeps only where and as whom to log in again (and `also`): anything else, including fields a
  // newer chamberctl may have added (or the tokens an older one kept here), could be a
  // credential. The profile's token cache goes too. Resolves to whether there was anything to
  // forget.
  async forgetSecrets(name: string, also: (keyof Profile)[] = []): Promise<boolean> {
    assertProfileName(name)
    let cleared = false
    const forgot = await this.mutate((profiles) => {
      // Under the lock, as the profile loses its login: a refresh of that login that completes
      // later finds it gone (saveToken) and stores nothing.
      cleared = this.tokens(name).clear()
      const current = Object.hasOwn(profiles, name) ? profiles[name] : undefined
      if (current === undefined) return false
      const kept: Profile = {}
      for (const key of [...KEPT_BY_FORGET, ...also]) {
        if (current[key] !== undefined) Object.assign(kept, { [key]: current[key] })
      }
      profiles[name] = kept
      return Object.keys(current).length > Object.keys(kept).length
    })
    return cleared || forgot
  }

  // The mode of config.json (its permission bits), undefined while there is none: what `login`
  // and `auth status` say of a secret kept in it is said only when true.
  fileMode(): number | undefined {
    const stats = fileStats(this.path)
    return stats === undefined ? undefined : stats.mode & 0o777
  }

  private read(): Record<string, Profile> {
    const top = guardRead(this.path, () => parseTopLevel(readConfigFile(this.path), this.path))
    return parseProfiles(top.profiles, this.path)
  }

  // `change` edits a fresh read of the file in place and says whether to write it back.
  private async mutate(change: (profiles: Record<string, Profile>) => boolean): Promise<boolean> {
    return this.locked(() => {
      const profiles = this.read()
      if (!change(profiles)) return false
      this.write({ profiles })
      return true
    })
  }

  // `critical` is synchronous on purpose: the lock is held for the few milliseconds of one read
  // and one atomic write, never across an await.
  private async locked<T>(critical: () => T): Promise<T> {
    const lockfile = await import('proper-lockfile')
    const { staleMs, timeoutMs } = { ...LOCK_DEFAULTS, ...this.lockOptions }
    const lockPath = `${this.path}.lock`
    const release = await lockfile.default
      .lock(this.path, {
        realpath: false,
        lockfilePath: lockPath,
        stale: staleMs,
        retries: retriesFor(timeoutMs),
        // Only a holder stalled past staleMs loses its lock, and none stalls inside a read and
        // a write; the atomic write never leaves a torn file either way.
        onCompromised: () => {},
      })
      .catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ELOCKED') {
          throw new CliError(`cannot lock ${lockPath}: ${describeFsError(error)}`)
        }
        throw new CliError(
          `config is locked by another chamberctl process (${lockPath}); ` +
            'remove that directory if no chamberctl is running',
        )
      })
    try {
      return critical()
    } finally {
      // Already taken over as stale by a peer: nothing of ours is left to remove.
      await release().catch(() => {})
    }
  }

  // Losing every saved profile to a file that could not be parsed is worse than asking the user to
  // fix one typo: a file that does not parse is reported, never replaced.
  private write(values: Record<string, unknown>): void {
    writeKeys(this.path, values, (text) => parseTopLevel(text, this.path))
  }
}

// Whose tokens a profile's cache may hold and use: its client's, under its current login. A
// profile an earlier chamberctl logged in keeps no login id: its login lasts while it keeps a
// secret, which `logout` removes.
export function tokenOwner(profile: Profile | undefined): TokenOwner | undefined {
  if (!profile?.client_id) return undefined
  if (profile.login !== undefined) return { client_id: profile.client_id, login: profile.login }
  const secret = profile.client_secret !== undefined || profile.keyring_account !== undefined
  return secret ? { client_id: profile.client_id, login: '' } : undefined
}

function retriesFor(waitMs: number) {
  return {
    retries: Math.ceil(waitMs / LOCK_RETRY_MS),
    factor: 1,
    minTimeout: LOCK_RETRY_MS,
    maxTimeout: LOCK_RETRY_MS,
    // Contending processes do not retry in lockstep.
    randomize: true,
  }
}

function unknownProfile(name: string, names: string[]): UsageError {
  const create = `\`chamberctl login --profile ${name}\` creates it`
  return new UsageError(
    names.length === 0
      ? `no profile ${name}: there are no profiles yet; ${create}`
      : `no profile ${name}: the profiles are ${names.sort().join(', ')}; ${create}`,
  )
}

// A symbolic link is left as it is (chmod would change the file it points to); writing through
// it is refused (writePrivateFile).
function tightenFileMode(file: string): void {
  const stats = fileStats(file)
  if (stats === undefined || stats.isSymbolicLink() || (stats.mode & 0o077) === 0) return
  try {
    chmodSync(file, 0o600)
  } catch (error) {
    // Not our file (e.g. written once under sudo): reading still works, and the next write
    // replaces it with a 0600 one.
    if ((error as NodeJS.ErrnoException).code === 'EPERM') return
    throw new CliError(`cannot restrict permissions of ${file}: ${describeFsError(error)}`)
  }
}

function fileStats(file: string): Stats | undefined {
  try {
    return lstatSync(file, { throwIfNoEntry: false })
  } catch (error) {
    throw new CliError(`cannot read config file ${file}: ${describeFsError(error)}`)
  }
}

function guardRead<T>(file: string, read: () => T): T {
  try {
    return read()
  } catch (error) {
    if (error instanceof CliError) throw error
    if (error instanceof SyntaxError) {
      throw new CliError(
        `config file ${file} is not valid JSON (${error.message}); fix it or move it away`,
      )
    }
    throw new CliError(`cannot read config file ${file}: ${describeFsError(error)}`)
  }
}

// A missing file holds no profiles yet.
function readConfigFile(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ''
    throw error
  }
}

function parseTopLevel(text: string, file: string): Record<string, unknown> {
  const value = parseJsonObject(text)
  if (!value) throw invalid(file, 'the top level is not a JSON object')
  return value
}

// Null-prototype records, so that a profile named `__proto__` or `constructor` is plain data.
function parseProfiles(value: unknown, file: string): Record<string, Profile> {
  const profiles: Record<string, Profile> = Object.create(null)
  if (value === undefined) return profiles
  if (!isPlainObject(value)) throw invalid(file, '"profiles" is not an object')
  for (const [name, entry] of Object.entries(value)) {
    const where = `profiles.${name}`
    if (!isPlainObject(entry)) throw invalid(file, `${where} is not an object`)
    for (const key of STRING_FIELDS) {
      if (entry[key] !== undefined && typeof entry[key] !== 'string') {
        throw invalid(file, `${where}.${key} is not a string`)
      }
    }
    // Unknown keys are kept so that an older chamberctl does not erase a newer one's data.
    profiles[name] = { ...entry } as Profile
  }
  return profiles
}

function invalid(file: string, problem: string): CliError {
  return new CliError(`config file ${file} is invalid: ${problem}; fix it or move it away`)
}

function withoutUndefined(profile: Profile): Profile {
  // fromEntries defines properties, so even a `__proto__` key stays data.
  return Object.fromEntries(Object.entries(profile).filter(([, value]) => value !== undefined))
}
