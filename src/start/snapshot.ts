// The entry of the single executable built for the build machine's own platform
// (scripts/release/package.mjs), which carries a V8 startup snapshot: while the snapshot is made,
// the CLI is loaded and one real command path (`chambers list --json`) runs against an in-memory
// dispatcher, so that the modules it needs are in the heap and the functions it calls are compiled.
// What the warm-up loads is what the snapshot holds (src/start/snapshot-main.ts): the rest of the
// CLI is read from the executable when a command needs it. What stays for the run itself is
// undici's first connection (its socket and its WebAssembly HTTP parser cannot be in a snapshot),
// and the built-ins the bundle loads on first use (node:http among them cannot be in a user
// snapshot).
//
// Nothing may be written to stdout or stderr while the snapshot is made: a pending write would be
// replayed by every run.
import { PassThrough, Writable } from 'node:stream'
import v8 from 'node:v8'
import type { Dispatcher } from 'undici'
import type { IO } from '../io/streams.js'
import { main, run } from '../cli/main.js'
import { answerVersion } from './version.js'

const WARM_UP_BASE_URL = 'https://chambers.invalid/v2'

// One page of one chamber, as a server would answer `GET /chambers`.
const WARM_UP_ANSWER = JSON.stringify({
  data: [
    {
      id: 'ch_0001',
      name: 'Warm-up Chamber',
      type: 'hq',
      hq_id: null,
      address: { street: 'Street 1', city: 'City', postal_code: '10000', country: 'DE' },
      status: 'active',
      created_at: '2025-01-01T00:00:00Z',
    },
  ],
  meta: { current_page: 1, per_page: 20, total: 1 },
})

// Answers every request at once with WARM_UP_ANSWER, through the same handler calls undici makes.
function inMemoryDispatcher(): Dispatcher {
  const controller = { abort() {}, pause() {}, resume() {}, aborted: false, paused: false }
  const dispatcher = {
    dispatch(_options: unknown, handler: Dispatcher.DispatchHandler) {
      const body = Buffer.from(WARM_UP_ANSWER)
      const started = controller as unknown as Dispatcher.DispatchController
      handler.onRequestStart?.(started, {})
      handler.onResponseStart?.(started, 200, { 'content-type': 'application/json' }, 'OK')
      handler.onResponseData?.(started, body)
      handler.onResponseEnd?.(started, {})
      return true
    },
    close: async () => {},
    destroy: async () => {},
  }
  return dispatcher as unknown as Dispatcher
}

function discardingIO(env: NodeJS.ProcessEnv): IO {
  const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() })
  const input = new PassThrough()
  input.end()
  return {
    out: sink(),
    err: sink(),
    in: input,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    env,
    onStop: () => () => {},
  }
}

async function warmUp(): Promise<void> {
  // The modules a request loads lazily, loaded now (the bundle has them inline).
  await Promise.all([
    import('../config/dir.js'),
    import('../config/profiles.js'),
    import('../cmdutil/connect.js'),
    import('../commands/chambers/list.js'),
    import('../io/output.js'),
  ])
  const env = { CHAMBERCTL_TOKEN: 'warm-up', CHAMBERCTL_BASE_URL: WARM_UP_BASE_URL }
  const argv = ['node', 'chamberctl', 'chambers', 'list', '--json']
  const code = await main(argv, discardingIO(env), inMemoryDispatcher())
  if (code !== 0) throw new Error(`the snapshot's warm-up run exited ${code}`)
}

if (v8.startupSnapshot.isBuildingSnapshot()) {
  v8.startupSnapshot.setDeserializeMainFunction(() => {
    if (!answerVersion(process.argv.slice(2))) void run()
  })
  // The snapshot is taken once the event loop is empty, after the warm-up; a failed one fails the
  // build.
  void warmUp()
}
