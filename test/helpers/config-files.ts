// Reading and editing what chamberctl keeps on disk (config.json, the token caches) behind its
// back, as a user or time would.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Profile } from '../../src/config/profiles.js'
import { tokenKey } from '../../src/config/tokens.js'
import type { ProfileToken, TokenOwner } from '../../src/config/tokens.js'

export function configFile(dir: string): string {
  return path.join(dir, 'config.json')
}

export function readProfiles(dir: string): Record<string, Profile> {
  const text = readFileSync(configFile(dir), 'utf8')
  return (JSON.parse(text) as { profiles?: Record<string, Profile> }).profiles ?? {}
}

// A profile as config.json holds it, and a snapshot of its token cache (tokens/<name>.json) as
// `tokens`, by base URL, when it has one.
export type StoredProfile = Profile & { tokens?: Record<string, ProfileToken> }

export function readProfile(dir: string, name = 'default'): StoredProfile {
  const profile = readProfiles(dir)[name]
  if (!profile) throw new Error(`no profile ${name} in ${configFile(dir)}`)
  const tokens = readTokenFile(dir, name)?.tokens
  return tokens === undefined ? profile : { ...profile, tokens }
}

export function tokenFile(dir: string, name = 'default'): string {
  return path.join(dir, 'tokens', `${name}.json`)
}

function readTokenFile(
  dir: string,
  name: string,
): { profile: string; tokens: Record<string, ProfileToken> } | undefined {
  const file = tokenFile(dir, name)
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined
}

// Edits a profile behind chamberctl's back, as a user (or time) would.
export function patchProfile(dir: string, patch: Partial<Profile>, name = 'default'): void {
  const file = configFile(dir)
  const config = JSON.parse(readFileSync(file, 'utf8')) as { profiles: Record<string, Profile> }
  config.profiles[name] = { ...config.profiles[name], ...patch }
  writeFileSync(file, JSON.stringify(config))
}

// The token a profile had cached for a base URL (its own, unless another is named).
export function tokenOf(
  profile: StoredProfile,
  baseUrl = profile.base_url!,
): ProfileToken | undefined {
  return profile.tokens?.[tokenKey(baseUrl)]
}

// Edits the token a profile has cached for its own base URL (or another one).
export function patchToken(
  dir: string,
  patch: Partial<ProfileToken & TokenOwner>,
  name = 'default',
  baseUrl?: string,
): void {
  const profile = readProfile(dir, name)
  const key = tokenKey(baseUrl ?? profile.base_url!)
  const token = { access_token: '', ...tokenOf(profile, key), ...patch }
  const file = tokenFile(dir, name)
  writeFileSync(
    file,
    JSON.stringify({ profile: name, tokens: { ...profile.tokens, [key]: token } }),
  )
}

export function modeOf(file: string): number {
  return statSync(file).mode & 0o777
}
