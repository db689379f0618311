// A raw loopback listener of its own for each test, for the tests of what chamberctl sends where:
// it grants every token request and answers every other request with the same list. `run` runs
// chamberctl in this process with a fresh config directory of the test's own.
import { afterEach, beforeEach } from 'vitest'
import { runMain, useTempDirs } from './cli.js'
import type { RunOptions, RunResult } from './cli.js'
import { startRawListener } from './raw-listener.js'
import type { RawListener } from './raw-listener.js'

export function useTokenListener(tokenAnswer: object, listAnswer: object) {
  const tempDir = useTempDirs('chamberctl-listener-')
  let listener: RawListener | undefined
  let config: string | undefined
  beforeEach(async () => {
    config = tempDir()
    listener = await startRawListener((r) =>
      r.path.endsWith('/auth/token')
        ? { status: 200, body: tokenAnswer }
        : { status: 200, body: listAnswer },
    )
  })
  afterEach(async () => {
    await listener?.close()
    listener = config = undefined
  })
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the listener is started in beforeEach')
    return value
  }
  return {
    listener: () => started(listener),
    configDir: () => started(config),
    run(args: string[], env: NodeJS.ProcessEnv = {}, options: RunOptions = {}): Promise<RunResult> {
      return runMain(args, { ...options, env: { CHAMBERCTL_CONFIG_DIR: started(config), ...env } })
    },
  }
}
