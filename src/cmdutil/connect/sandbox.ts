// --sandbox: a sandbox started in this process on the config directory's sandbox.db, and its
// credentials.
import { join } from 'node:path'
import { configDir, ensureConfigDir } from '../../config/dir.js'
import type { Context } from '../context.js'
import type { Connection } from './connection.js'

export async function embeddedSandbox(ctx: Context): Promise<Connection> {
  const { startSandbox } = await import('../../sandbox/server.js')
  const dir = configDir(ctx.io.env)
  ensureConfigDir(dir)
  // Processes at once share the database; SQLite serializes their writes, one at a time.
  const sandbox = await startSandbox({ port: 0, dataFile: join(dir, 'sandbox.db') })
  ctx.cleanup.push(() => sandbox.close())
  return { baseUrl: sandbox.baseUrl(ctx.globals.sandbox!), ...sandbox.credentials }
}
