// For the seed tests: a proxy in front of a sandbox that holds back the requests a test chooses
// (the creates) until the test lets them through, one by one or all at once, and measures how
// many of them were open at the same moment. Timing then depends on what the test does, never
// on a clock. And an in-process run of `main` that can be interrupted as Ctrl-C would.
import { main } from '../../src/cli/main.js'
import type { Sandbox } from '../../src/sandbox/server.js'
import type { RunResult } from './cli.js'
import { startProxy } from './proxy.js'
import { createTestIO } from './test-io.js'

export type Gate = {
  baseUrl(version: 'v1' | 'v2'): string
  // Requests held back now, oldest first, as "METHOD /path".
  held(): string[]
  // Resolves once at least `count` requests are held back.
  whenHeld(count: number): Promise<void>
  // Lets the oldest `count` held requests through to the sandbox.
  release(count?: number): void
  // Lets every held request through, and every later one without holding it.
  open(): void
  // The most matching requests that were open (held or on their way) at the same moment.
  maxOpen(): number
  // How many connections the client opened.
  connections(): number
  close(): Promise<void>
}

export const isCreate = (method: string, url: string) =>
  method === 'POST' && !url.endsWith('/auth/token')

export async function startGate(
  target: Sandbox,
  matches: (method: string, url: string) => boolean = isCreate,
): Promise<Gate> {
  let holding = true
  const queue: { label: string; forward: () => void }[] = []
  const waiters: { count: number; resolve: () => void }[] = []
  const notify = () => {
    for (const waiter of waiters.filter((w) => queue.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.resolve()
    }
  }

  const proxy = await startProxy(target, {
    counts: matches,
    intercept: (req, forward) => {
      const method = req.method ?? 'GET'
      const url = req.url ?? '/'
      if (!holding || !matches(method, url)) return forward()
      // Paused until released: the body stays in the socket, the sandbox has seen nothing.
      req.pause()
      queue.push({ label: `${method} ${url}`, forward })
      notify()
    },
  })

  const release = (count = 1) => {
    for (const entry of queue.splice(0, count)) entry.forward()
  }
  return {
    baseUrl: proxy.baseUrl,
    held: () => queue.map((entry) => entry.label),
    whenHeld: (count) =>
      new Promise<void>((resolve) => {
        waiters.push({ count, resolve })
        notify()
      }),
    release,
    open() {
      holding = false
      release(queue.length)
    },
    maxOpen: proxy.maxOpen,
    connections: proxy.connections,
    close: proxy.close,
  }
}

export type InterruptibleRun = {
  // What Ctrl-C does: the handlers the command registered with io.onStop are called.
  interrupt(): void
  done: Promise<RunResult>
}

// `chamberctl ...args` through main() in this process, with a Ctrl-C the test presses (and the
// retries' clock, see recordingSleep).
export function startInterruptible(
  args: string[],
  env: NodeJS.ProcessEnv,
  sleep?: (ms: number) => Promise<void>,
): InterruptibleRun {
  const test = createTestIO({ env })
  const done = main(['node', 'chamberctl', ...args], test.io, undefined, sleep).then((code) => ({
    code,
    stdout: test.stdout(),
    stderr: test.stderr(),
  }))
  return { interrupt: test.interrupt, done }
}
