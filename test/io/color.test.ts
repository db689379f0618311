import { describe, expect, it } from 'vitest'
import { colorEnabled } from '../../src/io/color.js'

describe('colorEnabled', () => {
  it.each([
    ['a TTY', {}, true, undefined, true],
    ['a pipe', {}, false, undefined, false],
    ['--no-color on a TTY', {}, true, false, false],
    ['flag left at its default', {}, true, true, true],
    ['NO_COLOR on a TTY', { NO_COLOR: '1' }, true, undefined, false],
    ['an empty NO_COLOR', { NO_COLOR: '' }, true, undefined, true],
    ['FORCE_COLOR in a pipe', { FORCE_COLOR: '1' }, false, undefined, true],
    ['an empty FORCE_COLOR in a pipe', { FORCE_COLOR: '' }, false, undefined, true],
    ['FORCE_COLOR=0 on a TTY', { FORCE_COLOR: '0' }, true, undefined, false],
    ['FORCE_COLOR=false on a TTY', { FORCE_COLOR: 'false' }, true, undefined, false],
    ['NO_COLOR beats FORCE_COLOR', { NO_COLOR: '1', FORCE_COLOR: '1' }, true, undefined, false],
    ['--no-color beats FORCE_COLOR', { FORCE_COLOR: '3' }, false, false, false],
    ['TERM=dumb on a TTY', { TERM: 'dumb' }, true, undefined, false],
    ['FORCE_COLOR beats TERM=dumb', { TERM: 'dumb', FORCE_COLOR: '1' }, false, undefined, true],
  ])('%s', (_name, env, isTTY, flag, expected) => {
    expect(colorEnabled({ env, isTTY, flag })).toBe(expected)
  })
})
