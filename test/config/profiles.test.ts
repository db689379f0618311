import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CliError, UsageError } from '../../src/errors.js'
import { ProfileStore, assertProfileName } from '../../src/config/profiles.js'
import { OWNER, POSIX, modeOf, useTempDirs } from './helpers.js'

const tempDir = useTempDirs()

function openStore(): { dir: string; store: ProfileStore } {
  const dir = path.join(tempDir(), 'chamberctl')
  return { dir, store: ProfileStore.open(dir) }
}

function readRaw(store: ProfileStore): unknown {
  return JSON.parse(readFileSync(store.path, 'utf8'))
}

const PROD = {
  base_url: 'https://api.example.com/v2',
  client_id: 'ci-bot',
  client_secret: 's3cret',
}

describe('ProfileStore basics', () => {
  it('opens without creating the file, and lists nothing', () => {
    const { dir, store } = openStore()
    expect(store.path).toBe(path.join(dir, 'config.json'))
    expect(existsSync(store.path)).toBe(false)
    expect(store.list()).toEqual({})
    expect(store.get('default')).toBeUndefined()
  })

  it('saves, gets and lists profiles in the documented layout', async () => {
    const { store } = openStore()
    await store.save('prod', PROD)
    await store.save('default', { base_url: 'http://127.0.0.1:4010/v1' })
    expect(store.get('prod')).toEqual(PROD)
    expect(store.list()).toEqual({ prod: PROD, default: { base_url: 'http://127.0.0.1:4010/v1' } })
    expect(readRaw(store)).toEqual({
      profiles: { prod: PROD, default: { base_url: 'http://127.0.0.1:4010/v1' } },
    })
  })

  it('save replaces the whole profile', async () => {
    const { store } = openStore()
    await store.save('prod', PROD)
    await store.save('prod', { client_id: 'other' })
    expect(store.get('prod')).toEqual({ client_id: 'other' })
  })

  it('sees what another instance wrote (no stale cache)', async () => {
    const { dir, store } = openStore()
    await ProfileStore.open(dir).save('prod', PROD)
    expect(store.get('prod')).toEqual(PROD)
  })

  it('stores dotted names as one flat key', async () => {
    const { store } = openStore()
    await store.save('acme.prod', { client_id: 'a' })
    await store.update('acme.prod', { client_secret: 'b' })
    expect(readRaw(store)).toEqual({
      profiles: { 'acme.prod': { client_id: 'a', client_secret: 'b' } },
    })
    expect(store.get('acme')).toBeUndefined()
  })

  it('treats names such as __proto__ and constructor as plain data', async () => {
    const { store } = openStore()
    expect(store.get('constructor')).toBeUndefined()
    await store.save('__proto__', { client_id: 'p' })
    await store.update('constructor', { client_id: 'c' })
    expect(store.get('__proto__')).toEqual({ client_id: 'p' })
    expect(store.get('constructor')).toEqual({ client_id: 'c' })
    expect(Object.keys(store.list()).sort()).toEqual(['__proto__', 'constructor'])
  })

  it('keeps top-level keys it does not own', async () => {
    const { dir } = openStore()
    const file = path.join(dir, 'config.json')
    writeFileSync(file, JSON.stringify({ telemetry: false, profiles: {} }))
    await ProfileStore.open(dir).save('a', { client_id: 'x' })
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      telemetry: false,
      profiles: { a: { client_id: 'x' } },
    })
  })

  it('never writes to stdout or stderr', async () => {
    const out = vi.spyOn(process.stdout, 'write')
    const err = vi.spyOn(process.stderr, 'write')
    const { store } = openStore()
    await store.save('a', PROD)
    await store.update('a', { client_id: undefined })
    await store.forgetSecrets('a')
    await store.remove('a')
    expect(out).not.toHaveBeenCalled()
    expect(err).not.toHaveBeenCalled()
  })

  afterEach(() => {
    vi.restoreAllMocks()
  })
})

describe('ProfileStore.update', () => {
  it('creates a missing profile from a patch', async () => {
    const { store } = openStore()
    expect(await store.update('new', { base_url: 'https://x/v2' })).toEqual({
      base_url: 'https://x/v2',
    })
    expect(store.get('new')).toEqual({ base_url: 'https://x/v2' })
  })

  it('merges a patch and removes keys set to undefined', async () => {
    const { store } = openStore()
    await store.save('prod', PROD)
    const written = await store.update('prod', { client_id: 'other', client_secret: undefined })
    const expected = { base_url: PROD.base_url, client_id: 'other' }
    expect(written).toEqual(expected)
    expect(store.get('prod')).toEqual(expected)
    expect(readFileSync(store.path, 'utf8')).not.toContain('client_secret')
  })

  it('hands a function the current profile, or undefined', async () => {
    const { store } = openStore()
    const seen: unknown[] = []
    const bump = (p: { client_id?: string } | undefined) => {
      seen.push(p)
      return { ...p, client_id: `${p?.client_id ?? ''}+` }
    }
    await store.update('n', bump)
    await store.update('n', bump)
    expect(seen).toEqual([undefined, { client_id: '+' }])
    expect(store.get('n')).toEqual({ client_id: '++' })
  })

  it('drops undefined values returned by a function', async () => {
    const { store } = openStore()
    await store.save('prod', PROD)
    await store.update('prod', (p) => ({ ...p, client_secret: undefined }))
    expect(store.get('prod')).not.toHaveProperty('client_secret')
  })

  it('re-reads the file so that another writer’s profile is kept', async () => {
    const { dir, store } = openStore()
    await store.save('a', { client_id: 'a' })
    await ProfileStore.open(dir).save('b', { client_id: 'b' })
    await store.update('a', { client_secret: 't' })
    expect(store.list()).toEqual({
      a: { client_id: 'a', client_secret: 't' },
      b: { client_id: 'b' },
    })
  })

  it('keeps fields it does not know, for newer versions', async () => {
    const { dir } = openStore()
    const file = path.join(dir, 'config.json')
    writeFileSync(file, JSON.stringify({ profiles: { a: { client_id: 'a', region: 'eu' } } }))
    const store = ProfileStore.open(dir)
    await store.update('a', { client_secret: 't' })
    expect(readRaw(store)).toEqual({
      profiles: { a: { client_id: 'a', region: 'eu', client_secret: 't' } },
    })
  })
})

describe('ProfileStore.remove and forgetSecrets', () => {
  it('removes a profile and says whether there was one', async () => {
    const { store } = openStore()
    await store.save('a', PROD)
    await store.save('b', PROD)
    expect(await store.remove('a')).toBe(true)
    expect(await store.remove('a')).toBe(false)
    expect(store.list()).toEqual({ b: PROD })
  })

  it('forgets secret and token cache (an older version’s tokens in config.json too) but keeps base URL and client id', async () => {
    const { store } = openStore()
    const legacy = { tokens: { [PROD.base_url]: { access_token: 'old-tok' } }, region: 'eu' }
    await store.save('prod', { ...PROD, ...legacy } as typeof PROD)
    store.tokens('prod').write(PROD.base_url, { access_token: 'tok', expires_at: 5 }, OWNER)
    expect(await store.forgetSecrets('prod')).toBe(true)
    expect(store.get('prod')).toEqual({ base_url: PROD.base_url, client_id: 'ci-bot' })
    const text = readFileSync(store.path, 'utf8')
    for (const secret of ['s3cret', 'tok', 'tokens', 'region']) {
      expect(text).not.toContain(secret)
    }
    expect(existsSync(store.tokens('prod').path)).toBe(false)
    // Nothing left to forget.
    expect(await store.forgetSecrets('prod')).toBe(false)
  })

  it('remove takes the token cache with the profile', async () => {
    const { store } = openStore()
    await store.save('a', PROD)
    store.tokens('a').write(PROD.base_url, { access_token: 'tok' }, OWNER)
    expect(await store.remove('a')).toBe(true)
    expect(existsSync(store.tokens('a').path)).toBe(false)
  })

  it('forgetSecrets on a missing profile changes nothing', async () => {
    const { store } = openStore()
    expect(await store.forgetSecrets('ghost')).toBe(false)
    expect(existsSync(store.path)).toBe(false)
  })
})

describe('profile names', () => {
  const bad = ['', 'a b', 'a/b', '../x', 'ü', 'x'.repeat(65), 'tab\t', 'a:b']
  const good = ['default', 'A-Z_0.9', 'x'.repeat(64), '.', 'acme.prod']

  it.each(good)('accepts %j', (name) => {
    expect(assertProfileName(name)).toBe(name)
  })

  it.each(bad)('rejects %j with a usage error', async (name) => {
    const { store } = openStore()
    expect(() => store.get(name)).toThrow(UsageError)
    await expect(store.save(name, {})).rejects.toThrow(UsageError)
    await expect(store.update(name, {})).rejects.toThrow(UsageError)
    await expect(store.remove(name)).rejects.toThrow(UsageError)
    await expect(store.forgetSecrets(name)).rejects.toThrow(UsageError)
    expect(() => assertProfileName(name)).toThrow(/invalid profile name/)
    expect(existsSync(store.path)).toBe(false)
  })
})

describe('invalid config files', () => {
  function withFile(contents: string): { dir: string; file: string } {
    const dir = tempDir()
    const file = path.join(dir, 'config.json')
    writeFileSync(file, contents, { mode: 0o600 })
    return { dir, file }
  }

  it('fails loudly on broken JSON, naming the file, and leaves it untouched', () => {
    const broken = '{"profiles": {"prod": {"client_id": "x",}}}'
    const { dir, file } = withFile(broken)
    let error: unknown
    try {
      ProfileStore.open(dir)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(CliError)
    expect(error).not.toBeInstanceOf(UsageError)
    expect((error as CliError).exitCode).toBe(1)
    expect((error as CliError).message).toContain(`config file ${file} is not valid JSON`)
    expect(readFileSync(file, 'utf8')).toBe(broken)
  })

  it('notices a file broken after opening', async () => {
    const { dir, file } = withFile('{}')
    const store = ProfileStore.open(dir)
    writeFileSync(file, 'not json')
    expect(() => store.list()).toThrow(CliError)
    await expect(store.update('a', {})).rejects.toThrow(`config file ${file} is not valid JSON`)
    expect(readFileSync(file, 'utf8')).toBe('not json')
  })

  it.each([
    ['[]', 'the top level is not a JSON object'],
    ['"text"', 'the top level is not a JSON object'],
    ['null', 'the top level is not a JSON object'],
    ['{"profiles": []}', '"profiles" is not an object'],
    ['{"profiles": {"a": "x"}}', 'profiles.a is not an object'],
    ['{"profiles": {"a": {"base_url": 1}}}', 'profiles.a.base_url is not a string'],
  ])('rejects %s', (contents, problem) => {
    const { dir, file } = withFile(contents)
    expect(() => ProfileStore.open(dir)).toThrow(CliError)
    expect(() => ProfileStore.open(dir)).toThrow(`config file ${file} is invalid: ${problem}`)
  })

  // An older chamberctl cached tokens in the profile; whatever their shape, they block nothing.
  it.each(['[]', '{"u": {}}', '{"u": {"access_token": "t", "expires_at": "soon"}}'])(
    'ignores the tokens an older version kept in config.json: %s',
    (tokens) => {
      const { dir } = withFile(`{"profiles": {"a": {"client_id": "x", "tokens": ${tokens}}}}`)
      const store = ProfileStore.open(dir)
      expect(store.get('a')).toMatchObject({ client_id: 'x' })
      expect(store.tokens('a').get('u', OWNER)).toBeUndefined()
    },
  )

  it('reads an empty file as no profiles', async () => {
    const { dir } = withFile('')
    const store = ProfileStore.open(dir)
    expect(store.list()).toEqual({})
    await store.save('a', { client_id: 'a' })
    expect(store.get('a')).toEqual({ client_id: 'a' })
  })
})

describe.runIf(POSIX)('file permissions', () => {
  it('creates the directory 0700 and the file 0600', async () => {
    const { dir, store } = openStore()
    expect(modeOf(dir)).toBe(0o700)
    await store.save('a', PROD)
    expect(modeOf(store.path)).toBe(0o600)
  })

  it('tightens a looser existing directory and file on open', () => {
    const { dir, store } = openStore()
    writeFileSync(store.path, '{}')
    chmodSync(store.path, 0o644)
    chmodSync(dir, 0o755)
    ProfileStore.open(dir)
    expect(modeOf(dir)).toBe(0o700)
    expect(modeOf(store.path)).toBe(0o600)
  })

  it('writes 0600 even over a file loosened while open', async () => {
    const { store } = openStore()
    await store.save('a', PROD)
    chmodSync(store.path, 0o666)
    await store.update('a', { client_secret: 'x' })
    expect(modeOf(store.path)).toBe(0o600)
  })
})

describe('the active profile', () => {
  it('is default until a switch, then the one switched to, kept in the file', async () => {
    const { dir, store } = openStore()
    await store.save('default', { client_id: 'd' })
    await store.save('staging', { client_id: 's' })
    expect(store.active()).toBeUndefined()
    expect(store.select(undefined)).toBe('default')
    await store.switchTo('staging')
    expect(store.select(undefined)).toBe('staging')
    expect(ProfileStore.open(dir).select(undefined)).toBe('staging')
    expect(readRaw(store)).toMatchObject({ active_profile: 'staging' })
    if (POSIX) expect(modeOf(store.path)).toBe(0o600)
  })

  it('gives way to a name given for one command', async () => {
    const { store } = openStore()
    await store.save('default', {})
    await store.save('staging', {})
    await store.switchTo('staging')
    expect(store.select('default')).toBe('default')
  })

  it('refuses a name that is not a profile, naming those there are', async () => {
    const { store } = openStore()
    await store.save('prod', {})
    await store.save('default', {})
    expect(() => store.select('nope')).toThrow(UsageError)
    expect(() => store.select('nope')).toThrow(
      'no profile nope: the profiles are default, prod; `chamberctl login --profile nope` creates it',
    )
    await expect(store.switchTo('nope')).rejects.toThrow(UsageError)
    expect(store.active()).toBeUndefined()
  })

  it('lets login create one, and lets default be missing', () => {
    const { store } = openStore()
    expect(store.select('new', { create: true })).toBe('new')
    expect(store.select(undefined)).toBe('default')
    expect(() => store.select('new')).toThrow('there are no profiles yet')
  })

  it('reports an active profile that is not a name as an invalid file', () => {
    const { store } = openStore()
    writeFileSync(store.path, JSON.stringify({ active_profile: 42 }))
    expect(() => store.select(undefined)).toThrow(CliError)
    expect(() => store.select(undefined)).toThrow('"active_profile" is not a profile name')
  })
})
