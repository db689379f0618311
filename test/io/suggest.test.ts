import { describe, expect, it } from 'vitest'
import { unknownName } from '../../src/io/suggest.js'

const MEMBER = ['name', 'email', 'phone', 'membership_type', 'status']

describe('unknownName', () => {
  it.each([
    ['emial', 'email'],
    ['Email', 'email'],
    ['phon', 'phone'],
    ['membership', 'membership_type'],
    ['membershiptype', 'membership_type'],
  ])('%s: did you mean %s?', (name, match) => {
    expect(unknownName(name, MEMBER)).toBe(`did you mean ${match}?`)
  })

  it.each(['bogus', 'id', 'x', 'created_at'])('%s is too far from any: lists the known', (name) => {
    expect(unknownName(name, MEMBER)).toBe(`known: ${MEMBER.join(', ')}`)
  })
})
