// For the seed tests: a proxy in front of a sandbox that holds back the requests a test chooses
// (the creates) until the test lets them through, one by one or all at once, and measures how
// many of them were open at the same moment. Timing then depends on what the test does, never
// on a clock.
import type { Sandbox } from '../../src/sandbox/server.js'
import { Holder, startFakeApi } from './fake-api.js'
import type { FakeApi } from './fake-api.js'

export type Gate = FakeApi & {
  // Requests held back now, oldest first, as "METHOD /path".
  held(): string[]
  // Resolves once at least `count` requests are held back.
  whenHeld(count: number): Promise<void>
  // Lets the oldest `count` held requests through to the sandbox.
  release(count?: number): void
  // Lets every held request through, and every later one without holding it.
  open(): void
}

export const isCreate = (method: string, url: string) =>
  method === 'POST' && !url.endsWith('/auth/token')

export async function startGate(
  target: Sandbox,
  matches: (method: string, url: string) => boolean = isCreate,
): Promise<Gate> {
  let holding = true
  const holder = new Holder<string>()
  const api = await startFakeApi({
    upstream: target.url,
    counts: (request) => matches(request.method, request.path),
    // Held whole by the gate: the sandbox has seen nothing of it until it is released.
    answer: async ({ method, path }) => {
      if (holding && matches(method, path)) await holder.hold(`${method} ${path}`)
      return 'forward' as const
    },
  })
  return {
    ...api,
    held: () => holder.held(),
    whenHeld: (count) => holder.whenHeld(count),
    release: (count = 1) => holder.release(count),
    open() {
      holding = false
      holder.release()
    },
  }
}
