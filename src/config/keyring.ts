// The OS keyring (macOS Keychain, Windows Credential Manager, the Secret Service of GNOME Keyring,
// KWallet or KeePassXC on Linux) through @napi-rs/keyring. Loading its native module and opening
// a D-Bus connection costs tens of milliseconds, so the module is imported only by the calls
// below, which only login, logout and a token refresh make.
import { createHash } from 'node:crypto'
import { existsSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { CliError } from '../errors.js'
import { CACHE_DIR, cacheDir, ensurePrivateDir } from './dir.js'

const SERVICE = 'chamberctl'

// The keyring cannot be reached here (no D-Bus session, no Secret Service, a locked or refused
// store); `reason` is the platform's own words.
export class KeyringUnavailable extends CliError {
  constructor(readonly reason: string) {
    super(`the OS keyring is not available: ${reason}`)
  }
}

type Entry = {
  setPassword(secret: string): Promise<void>
  getPassword(): Promise<string | null | undefined>
  deleteCredential(): Promise<boolean>
}

async function entry(account: string): Promise<Entry> {
  try {
    const { AsyncEntry } = await nativeKeyring()
    // Pinned to the Secret Service: left to choose, the library falls back silently to the
    // kernel keyring, which forgets everything at reboot.
    return new AsyncEntry(SERVICE, account, { linux: { store: 'secret-service' } })
  } catch (error) {
    // A cache directory refused (not the user's own) is said as such, not as "no keyring".
    if (error instanceof CliError) throw error
    throw unavailable(error)
  }
}

export async function storeInKeyring(account: string, secret: string): Promise<void> {
  const found = await entry(account)
  await found.setPassword(secret).catch((error: unknown) => {
    throw unavailable(error)
  })
}

// Resolves to undefined when the keyring holds no such entry (removed by the user, say).
export async function readFromKeyring(account: string): Promise<string | undefined> {
  const found = await entry(account)
  const secret = await found.getPassword().catch((error: unknown) => {
    throw unavailable(error)
  })
  return secret ?? undefined
}

// Resolves to false when there was no such entry.
export async function removeFromKeyring(account: string): Promise<boolean> {
  const found = await entry(account)
  return found.deleteCredential().catch((error: unknown) => {
    throw unavailable(error)
  })
}

const keyringPackage = () => import('@napi-rs/keyring')
type Keyring = Awaited<ReturnType<typeof keyringPackage>>

// A single executable carries the platform's addon as an asset, and Node loads an addon only from
// a file: it is written once into the cache directory, under its digest.
async function nativeKeyring(): Promise<Keyring> {
  const sea = process.getBuiltinModule('node:sea')
  if (!sea.isSea()) return keyringPackage()
  const addon = Buffer.from(sea.getRawAsset('keyring.node'))
  const digest = createHash('sha256').update(addon).digest('hex').slice(0, 16)
  const file = path.join(cacheDir(process.env), 'native', `keyring-${digest}.node`)
  // Code that runs as the user's own: only from a cache directory that is the user's alone.
  ensurePrivateDir(path.dirname(path.dirname(file)), CACHE_DIR)
  ensurePrivateDir(path.dirname(file), CACHE_DIR)
  if (!existsSync(file)) {
    const temporary = `${file}.${process.pid}.tmp`
    // Exclusively: never through a link someone left there.
    writeFileSync(temporary, addon, { mode: 0o700, flag: 'wx' })
    renameSync(temporary, file)
  }
  const module = { exports: {} as Keyring }
  process.dlopen(module, file)
  return module.exports
}

function unavailable(error: unknown): KeyringUnavailable {
  const message = error instanceof Error ? error.message : String(error)
  // "Platform failure: DBus error: …": the first clause says nothing the user can act on.
  return new KeyringUnavailable(message.replace(/^Platform failure: /, '').trim())
}
