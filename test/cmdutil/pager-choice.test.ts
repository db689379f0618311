// Which pager a command's output goes through (contract §1, --no-pager): the decision made from
// the environment, the flag and whether stdout is a terminal.
import { describe, expect, it } from 'vitest'
import { resolveGlobals } from '../../src/cmdutil/globals.js'
import { createTestIO } from '../helpers/test-io.js'

function pagerFor(env: NodeJS.ProcessEnv, { tty = true, pager = true } = {}): string | undefined {
  const { io } = createTestIO({ stdoutIsTTY: tty, stderrIsTTY: tty, env })
  return resolveGlobals({ pager }, io).pager
}

describe('the pager chosen', () => {
  it('is CHAMBERCTL_PAGER, else PAGER, else less -FRX, on a real terminal', () => {
    expect(pagerFor({ TERM: 'xterm' })).toBe('less -FRX')
    expect(pagerFor({ TERM: 'xterm', PAGER: 'more' })).toBe('more')
    expect(pagerFor({ TERM: 'xterm', PAGER: 'more', CHAMBERCTL_PAGER: 'most' })).toBe('most')
  })

  it.each([
    ['TERM=dumb', { TERM: 'dumb' }],
    ['TERM=dumb with a PAGER', { TERM: 'dumb', PAGER: 'less' }],
    ['TERM=dumb with a CHAMBERCTL_PAGER', { TERM: 'dumb', CHAMBERCTL_PAGER: 'less' }],
    ['TERM unset', {}],
    ['TERM empty', { TERM: '' }],
    ['PAGER=cat', { TERM: 'xterm', PAGER: 'cat' }],
    ['PAGER empty', { TERM: 'xterm', PAGER: '' }],
    ['CHAMBERCTL_PAGER=cat', { TERM: 'xterm', CHAMBERCTL_PAGER: 'cat', PAGER: 'less' }],
    ['CHAMBERCTL_PAGER empty', { TERM: 'xterm', CHAMBERCTL_PAGER: '', PAGER: 'less' }],
  ])('is none with %s', (_name, env: NodeJS.ProcessEnv) => {
    expect(pagerFor(env)).toBeUndefined()
  })

  it('is none with --no-pager or when stdout is not a terminal', () => {
    expect(pagerFor({ TERM: 'xterm' }, { pager: false })).toBeUndefined()
    expect(pagerFor({ TERM: 'xterm' }, { tty: false })).toBeUndefined()
  })
})
