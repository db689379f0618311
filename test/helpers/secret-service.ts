// A real Secret Service for the keyring tests: GNOME Keyring on a private D-Bus session bus
// (dbus-run-session), with its own home and an unlocked login keyring, as on a desktop. The
// session ends, and the keyring daemon with it, when stop() closes the shell's stdin.
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from './run-cli.js'

const TOOLS = ['dbus-run-session', 'gnome-keyring-daemon']

// Why a Secret Service cannot be had here, or undefined when it can (.ci/run installs it).
export const secretServiceMissing: string | undefined = (() => {
  if (process.platform !== 'linux') return 'the Secret Service is a Linux keyring'
  const missing = TOOLS.filter(
    (tool) => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status !== 0,
  )
  return missing.length === 0 ? undefined : `${missing.join(' and ')} not installed`
})()

export type SecretService = {
  // What leads a process to this session's keyring.
  env: { DBUS_SESSION_BUS_ADDRESS: string }
  stop(): Promise<void>
}

export async function startSecretService(dir: string): Promise<SecretService> {
  const home = path.join(dir, 'keyring-home')
  const runtime = path.join(dir, 'keyring-run')
  mkdirSync(home, { recursive: true })
  mkdirSync(runtime, { recursive: true, mode: 0o700 })
  const env = { PATH: process.env.PATH, HOME: home, XDG_RUNTIME_DIR: runtime }
  // The daemon forks and detaches once the keyring is unlocked; the bus address is then printed,
  // and `cat` holds the session open until its stdin is closed.
  const script = [
    'printf test-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 1',
    'echo "$DBUS_SESSION_BUS_ADDRESS"',
    'exec cat >/dev/null',
  ].join('\n')
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', script], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()))
  const address = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const line = out.split('\n')
      if (line.length > 1) resolve(line[0]!.trim())
    })
    void exited.then(() => reject(new Error(`the Secret Service did not start:\n${stderr}`)))
  })
  return {
    env: { DBUS_SESSION_BUS_ADDRESS: address },
    stop: async () => {
      child.stdin.end()
      await exited
    },
  }
}

// The entry chamberctl keeps under `account`, read past chamberctl; null when there is none.
export function readKeyringEntry(service: SecretService, account: string): string | null {
  return keyringCall(service, account, 'getPassword') as string | null
}

// As a user would remove it in Seahorse.
export function removeKeyringEntry(service: SecretService, account: string): void {
  keyringCall(service, account, 'deleteCredential')
}

function keyringCall(service: SecretService, account: string, method: string): unknown {
  const code = [
    "const { Entry } = require('@napi-rs/keyring')",
    "const entry = new Entry('chamberctl', process.argv[1], { linux: { store: 'secret-service' } })",
    'process.stdout.write(JSON.stringify(entry[process.argv[2]]() ?? null))',
  ].join('\n')
  const result = spawnSync(process.execPath, ['-e', code, account, method], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...service.env },
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`cannot read the keyring: ${result.stderr}`)
  return JSON.parse(result.stdout) as unknown
}
