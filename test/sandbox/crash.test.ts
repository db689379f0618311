// `chamberctl sandbox --data FILE` killed with SIGKILL while writes stream in: whatever it
// acknowledged must be in a database that still loads, and nothing but it is left once it has. Runs the built CLI (test/global-setup.ts
// builds it).
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { DEFAULT_CREDENTIALS } from '../../src/sandbox/server.js'
import { ids, useTempDir, withSandbox } from './helpers.js'

const BIN = fileURLToPath(new URL('../../bin/chamberctl.cjs', import.meta.url))
const KILL_AFTER = 20
const WRITERS = 8

const dir = useTempDir()

async function v2BaseUrl(child: ChildProcess): Promise<string> {
  for await (const line of createInterface({ input: child.stdout! })) {
    const match = /v2 base URL:\s+(\S+)/.exec(line)
    if (match) return match[1]!
  }
  throw new Error('the sandbox exited without printing its v2 base URL')
}

async function bearerHeaders(base: string): Promise<Record<string, string>> {
  const response = await fetch(`${base}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: DEFAULT_CREDENTIALS.clientId,
      client_secret: DEFAULT_CREDENTIALS.clientSecret,
      grant_type: 'client_credentials',
    }),
  })
  expect(response.status).toBe(200)
  const { access_token } = (await response.json()) as { access_token: string }
  return { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' }
}

it('a child killed with SIGKILL in the middle of a stream of writes leaves a database that loads', async () => {
  const file = join(dir(), 'sandbox.db')
  const args = [BIN, 'sandbox', '--port', '0', '--data', file, '--empty', '-q']
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const exited = once(child, 'exit')
  try {
    const base = await v2BaseUrl(child).catch((error: Error) => {
      throw new Error(`${error.message}\n${stderr}`)
    })
    child.stdout!.resume()
    const headers = await bearerHeaders(base)

    // Every 201 that arrives, before or after the kill, is a write the sandbox called durable.
    const acknowledged: string[] = []
    let killed = false
    const write = async (writer: number) => {
      for (let n = 0; !killed; n++) {
        const body = JSON.stringify({ name: `Crash ${writer}.${n}`, type: 'hq', address: {} })
        let reply: { status: number; body: { id: string } }
        try {
          const response = await fetch(`${base}/chambers`, { method: 'POST', headers, body })
          reply = { status: response.status, body: (await response.json()) as { id: string } }
        } catch (error) {
          // Requests in flight when the child dies fail; nothing else may.
          if (killed) return
          throw error
        }
        expect(reply.status).toBe(201)
        acknowledged.push(reply.body.id)
        if (acknowledged.length === KILL_AFTER) killed = child.kill('SIGKILL')
      }
    }
    await Promise.all(Array.from({ length: WRITERS }, (_, writer) => write(writer)))
    expect(await exited).toEqual([null, 'SIGKILL'])
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER)

    const loaded = await withSandbox({ dataFile: file }, (env) =>
      env.api('v2').listAll('/chambers'),
    )
    expect(ids(loaded)).toEqual(expect.arrayContaining(acknowledged))
    // The write-ahead log the kill left behind was recovered and removed by that clean start.
    expect(await readdir(dir())).toEqual(['sandbox.db'])
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
})
