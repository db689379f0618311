// One token-cache file per profile: tokens/<name>.json beside config.json (0600 in a 0700
// directory), never touching config.json, each token tagged with the login that got it; and a cache that cannot be read is
// discarded with one notice instead of blocking the command.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ProfileStore, tokenOwner } from '../../src/config/profiles.js'
import { OWNER, POSIX, modeOf, useTempDirs } from './helpers.js'

const tempDir = useTempDirs()
const V1 = 'https://api.example.com/v1'
const V2 = 'https://api.example.com/v2'

function openStore(): { dir: string; store: ProfileStore; notices: string[] } {
  const dir = path.join(tempDir(), 'chamberctl')
  const notices: string[] = []
  return { dir, store: ProfileStore.open(dir, { notice: (line) => notices.push(line) }), notices }
}

describe('the token cache of a profile', () => {
  it('is a file of its own, 0600 in a 0700 directory, keyed by base URL', async () => {
    const { dir, store } = openStore()
    await store.save('work', { base_url: V2, client_id: 'c', client_secret: 's' })
    const config = readFileSync(store.path, 'utf8')
    const configWritten = statSync(store.path).mtimeMs

    store.tokens('work').write(V2, { access_token: 'v2-token', expires_at: 1_000 }, OWNER)
    store.tokens('work').write(`${V1}/`, { access_token: 'v1-token' }, OWNER)
    store.tokens('home').write(V2, { access_token: 'home-token' }, OWNER)

    const file = path.join(dir, 'tokens', 'work.json')
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      profile: 'work',
      tokens: {
        [V2]: { access_token: 'v2-token', expires_at: 1_000, ...OWNER },
        [V1]: { access_token: 'v1-token', ...OWNER },
      },
    })
    expect(store.tokens('work').get(`${V2}//`, OWNER)).toEqual({
      access_token: 'v2-token',
      expires_at: 1_000,
    })
    expect(store.tokens('home').get(V2, OWNER)).toEqual({ access_token: 'home-token' })
    // Caching a token rewrote neither the profiles nor the secrets.
    expect(readFileSync(store.path, 'utf8')).toBe(config)
    expect(statSync(store.path).mtimeMs).toBe(configWritten)
    if (POSIX) {
      expect(modeOf(file)).toBe(0o600)
      expect(modeOf(path.join(dir, 'tokens'))).toBe(0o700)
    }
  })

  it('starts afresh on a new login (only), and is cleared at logout', async () => {
    const { store } = openStore()
    const cache = store.tokens('work')
    cache.write(V1, { access_token: 'old' }, OWNER)
    cache.write(V2, { access_token: 'new' }, OWNER, { only: true })
    expect(cache.get(V1, OWNER)).toBeUndefined()
    expect(cache.get(V2, OWNER)).toEqual({ access_token: 'new' })
    expect(cache.clear()).toBe(true)
    expect(existsSync(cache.path)).toBe(false)
    expect(cache.clear()).toBe(false)
  })

  it('does not use the file of a profile whose name differs only in case', async () => {
    const { store, notices } = openStore()
    const cache = store.tokens('work')
    mkdirSync(path.dirname(cache.path), { recursive: true })
    writeFileSync(
      cache.path,
      JSON.stringify({ profile: 'Work', tokens: { [V2]: { access_token: 't' } } }),
    )
    expect(cache.get(V2, OWNER)).toBeUndefined()
    expect(existsSync(cache.path)).toBe(true)
    expect(notices).toEqual([])
  })
})

describe('a token cache that cannot be read', () => {
  it.each([
    ['{"tokens": {', 'not valid JSON'],
    ['[]', 'not a JSON object'],
    ['{"tokens": []}', '"tokens" is not an object'],
    [`{"tokens": {"${V2}": {"token": "t"}}}`, `the token of ${V2} has no access_token string`],
    [
      `{"tokens": {"${V2}": {"access_token": "t", "expires_at": "soon"}}}`,
      `the expiry of ${V2}'s token is not a time`,
    ],
    [
      `{"tokens": {"${V2}": {"access_token": "t", "expires_at": 1e19}}}`,
      `the expiry of ${V2}'s token is not a time`,
    ],
  ])('%s is discarded with one notice, and the next token is cached', async (text, reason) => {
    const { store, notices } = openStore()
    const cache = store.tokens('work')
    mkdirSync(path.dirname(cache.path), { recursive: true })
    writeFileSync(cache.path, text)

    expect(cache.get(V2, OWNER)).toBeUndefined()
    expect(cache.get(V2, OWNER)).toBeUndefined()
    expect(notices).toEqual([
      `the token cache of profile work could not be read (${reason}) and was discarded: ${cache.path}`,
    ])
    expect(existsSync(cache.path)).toBe(false)
    cache.write(V2, { access_token: 'fresh' }, OWNER)
    expect(cache.get(V2, OWNER)).toEqual({ access_token: 'fresh' })
    expect(notices).toHaveLength(1)
  })
})

describe('tokens belong to a login', () => {
  const PROFILE = { base_url: V2, client_id: 'c', client_secret: 's' }
  const ownerOf = (store: ProfileStore) => tokenOwner(store.get('work'))!

  it('each login has an id of its own, and its token only', async () => {
    const { store } = openStore()
    await store.login('work', PROFILE, V2, { access_token: 'one' })
    const first = ownerOf(store)
    await store.login('work', PROFILE, V1, { access_token: 'two' })
    const second = ownerOf(store)
    expect(second.login).not.toBe(first.login)
    expect(store.tokens('work').get(V1, second)).toEqual({ access_token: 'two' })
    expect(store.tokens('work').get(V2, second)).toBeUndefined()
    expect(store.tokens('work').get(V1, first)).toBeUndefined()
  })

  it('a token of another client or another login is not used', async () => {
    const { store } = openStore()
    await store.login('work', PROFILE, V2, { access_token: 't' })
    const owner = ownerOf(store)
    expect(store.tokens('work').get(V2, owner)).toEqual({ access_token: 't' })
    expect(store.tokens('work').get(V2, { ...owner, client_id: 'other' })).toBeUndefined()
    expect(store.tokens('work').get(V2, { ...owner, login: 'other' })).toBeUndefined()
    expect(store.tokens('work').get(V2, undefined)).toBeUndefined()
  })

  it('a refresh is stored while its login is the profile’s, and discarded after logout or a new login', async () => {
    const { store } = openStore()
    await store.login('work', PROFILE, V2, { access_token: 'login' })
    const owner = ownerOf(store)
    expect(await store.saveToken('work', V1, { access_token: 'refreshed' }, owner)).toBe(true)
    expect(store.tokens('work').get(V1, owner)).toEqual({ access_token: 'refreshed' })

    await store.forgetSecrets('work')
    expect(tokenOwner(store.get('work'))).toBeUndefined()
    expect(await store.saveToken('work', V2, { access_token: 'late' }, owner)).toBe(false)
    expect(existsSync(store.tokens('work').path)).toBe(false)

    await store.login('work', PROFILE, V2, { access_token: 'again' })
    expect(await store.saveToken('work', V2, { access_token: 'late' }, owner)).toBe(false)
    expect(store.tokens('work').get(V2, ownerOf(store))).toEqual({ access_token: 'again' })
  })

  it('a profile an earlier chamberctl logged in keeps its login while it keeps a secret', () => {
    expect(tokenOwner({ client_id: 'c', client_secret: 's' })).toEqual({
      client_id: 'c',
      login: '',
    })
    expect(tokenOwner({ client_id: 'c', keyring_account: 'a' })).toEqual({
      client_id: 'c',
      login: '',
    })
    // After logout: only where and as whom to log in again.
    expect(tokenOwner({ client_id: 'c', base_url: V2 })).toBeUndefined()
    expect(tokenOwner({ client_id: 'c', login: 'l' })).toEqual({ client_id: 'c', login: 'l' })
  })
})
