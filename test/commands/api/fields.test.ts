// -f/-F keys as `gh api` reads them. `__proto__`, `constructor` and `prototype` are keys like any
// other: sent as written, never reaching Object.prototype.
import { afterEach, describe, expect, it } from 'vitest'
import { toBody } from '../../../src/commands/api/fields.js'

afterEach(() => {
  // Only a failing run leaves this; it must not leak into the other tests.
  delete (Object.prototype as Record<string, unknown>).x
})

describe('toBody', () => {
  it('nests a[b]=c and appends a[]=c', () => {
    const body = toBody([
      { key: 'a[b]', value: 1 },
      { key: 'a[c][d]', value: 'e' },
      { key: 'l[]', value: 1 },
      { key: 'l[]', value: 2 },
    ])
    expect(JSON.stringify(body)).toBe('{"a":{"b":1,"c":{"d":"e"}},"l":[1,2]}')
  })

  it('keeps __proto__, constructor and prototype as plain keys, Object.prototype untouched', () => {
    const body = toBody([
      { key: '__proto__[x]', value: 1 },
      { key: 'constructor[x]', value: 2 },
      { key: 'prototype[x]', value: 3 },
      { key: 'a[__proto__][x]', value: 4 },
      { key: 'a[constructor]', value: 5 },
    ])
    expect(({} as Record<string, unknown>).x).toBeUndefined()
    expect(JSON.stringify(body)).toBe(
      '{"__proto__":{"x":1},"constructor":{"x":2},"prototype":{"x":3},"a":{"__proto__":{"x":4},"constructor":5}}',
    )
  })

  it('sends __proto__=value as a key too', () => {
    expect(JSON.stringify(toBody([{ key: '__proto__', value: 'v' }]))).toBe('{"__proto__":"v"}')
  })
})
