// An IO for tests: buffers instead of the process's streams, and TTY flags chosen per test.
import { PassThrough, Writable } from 'node:stream'
import type { IO, StopReason } from '../../src/io/streams.js'

export type TestIOOptions = {
  stdoutIsTTY?: boolean
  stderrIsTTY?: boolean
  stdinIsTTY?: boolean
  // Replaces process.env entirely, so a developer's NO_COLOR or CI does not leak into tests.
  env?: NodeJS.ProcessEnv
  // What stdin yields before it ends; an empty, already ended stdin when not given.
  stdin?: string
  stdoutWidth?: number
  stdoutIsPipe?: boolean
}

export type TestIO = {
  io: IO
  stdout(): string
  stderr(): string
  // What Ctrl-C (or another reason to stop) would do: calls the handlers the command registered
  // with io.onStop.
  interrupt(reason?: StopReason): void
}

// A stream that says it is a terminal (of `columns` columns), as libraries that draw on one
// (a progress bar) check on the stream itself.
export function asTerminal<S extends Writable>(stream: S, isTTY: boolean, columns = 80): S {
  return isTTY ? Object.assign(stream, { isTTY: true, columns }) : stream
}

function sink(): { stream: Writable; text(): string } {
  const chunks: Buffer[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk)
      callback()
    },
  })
  // Decoded at the end, so a multi-byte character split across writes stays whole.
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') }
}

export function createTestIO(options: TestIOOptions = {}): TestIO {
  const out = sink()
  const err = sink()
  const input = new PassThrough()
  input.end(options.stdin ?? '')
  const handlers = new Set<(reason: StopReason) => void>()
  return {
    io: {
      out: asTerminal(out.stream, options.stdoutIsTTY ?? false, options.stdoutWidth),
      err: asTerminal(err.stream, options.stderrIsTTY ?? false, options.stdoutWidth),
      in: input,
      stdoutIsTTY: options.stdoutIsTTY ?? false,
      stderrIsTTY: options.stderrIsTTY ?? false,
      stdinIsTTY: options.stdinIsTTY ?? false,
      env: options.env ?? {},
      stdoutWidth: options.stdoutWidth,
      stderrWidth: options.stderrIsTTY ? options.stdoutWidth : undefined,
      stdoutIsPipe: options.stdoutIsPipe,
      onStop(handler) {
        handlers.add(handler)
        return () => void handlers.delete(handler)
      },
    },
    stdout: out.text,
    stderr: err.text,
    interrupt: (reason = 'SIGINT') => [...handlers].forEach((handler) => handler(reason)),
  }
}
