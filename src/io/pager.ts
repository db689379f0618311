// A pager as git and gh run one: on a terminal, a read's output goes through the command the
// global options chose (CHAMBERCTL_PAGER, PAGER, else `less -FRX`: -F quits at once when the
// output fits the screen, -R keeps the colours, -X leaves the text on the screen). Reached
// through a dynamic import from streams.ts, so that only a command that pages loads
// child_process.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import type { Writable } from 'node:stream'

export type Pager = {
  // The pager's stdin: what is written here is what the person sees.
  input: Writable
  // Resolves when the pager has ended: quit by the person, or at the end of a short output.
  closed: Promise<void>
}

// Starts `command` through the shell (a PAGER may carry options) on this process's terminal;
// undefined when its program is not installed (no `less`): the output then goes to the
// terminal as it is, rather than nowhere.
export function spawnPager(command: string, env: NodeJS.ProcessEnv): Pager | undefined {
  const program = command.trim().split(/\s+/)[0] ?? ''
  if (!program.includes('/') && !onPath(program, env.PATH)) return undefined
  const child = spawn(command, {
    shell: true,
    stdio: ['pipe', 'inherit', 'inherit'],
    // What git sets when the user has not: less keeps colours, lv too.
    env: { LESS: 'FRX', LV: '-c', ...env },
  })
  // A pager quit before the end closes its stdin: the writes fail with EPIPE, and the command
  // stops at the next page (output.ts looks at `destroyed`) and ends quietly.
  child.stdin.on('error', () => {})
  // Ctrl-C belongs to the pager while it runs (less stops a search with it); the command goes on
  // until the pager is quit.
  const ignore = () => {}
  process.on('SIGINT', ignore)
  const closed = new Promise<void>((resolve) => {
    const done = () => {
      process.off('SIGINT', ignore)
      resolve()
    }
    child.once('close', done)
    child.once('error', done)
  })
  return { input: child.stdin, closed }
}

function onPath(name: string, path: string | undefined): boolean {
  return (path ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, name)))
}
