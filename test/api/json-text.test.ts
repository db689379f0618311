import { describe, expect, it } from 'vitest'
import { nestsDeeperThan } from '../../src/api/json-text.js'

describe('nestsDeeperThan', () => {
  it('counts objects and arrays, not brackets inside strings', () => {
    expect(nestsDeeperThan('{"a":[{"b":1}]}', 3)).toBe(false)
    expect(nestsDeeperThan('{"a":[{"b":1}]}', 2)).toBe(true)
    expect(nestsDeeperThan('{"a":"[[[{{{","b":"\\\\","c":"\\"[[["}', 1)).toBe(false)
    expect(nestsDeeperThan('[[],[],[[]]]', 2)).toBe(true)
    expect(nestsDeeperThan('[[],[],[]]', 2)).toBe(false)
  })

  it('takes a text of any depth without recursion', () => {
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`
    expect(nestsDeeperThan(deep, 999_999)).toBe(true)
    expect(nestsDeeperThan(deep, 1_000_000)).toBe(false)
  })
})
