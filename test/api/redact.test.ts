import { describe, expect, it } from 'vitest'
import { redactText, redactUrl } from '../../src/api/redact.js'

describe('redaction', () => {
  it('masks secrets in JSON bodies, escaped quotes included', () => {
    const body = JSON.stringify({
      client_id: 'me',
      client_secret: 's3c"r$t',
      access_token: 'a.b~c',
    })
    const masked = redactText(body)
    expect(masked).toBe(
      '{"client_id":"me","client_secret":"[redacted]","access_token":"[redacted]"}',
    )
  })

  it('masks form-encoded secrets', () => {
    expect(redactText('client_id=me&client_secret=p%40ss&grant_type=client_credentials')).toBe(
      'client_id=me&client_secret=[redacted]&grant_type=client_credentials',
    )
  })

  it('masks a whole bearer or basic credential, whatever its characters', () => {
    expect(redactText('Authorization: Bearer ab$c/d!e')).toBe('Authorization: Bearer [redacted]')
    expect(redactText('basic dXNlcjpwYXNz')).toBe('basic [redacted]')
  })

  it('masks secret query parameters and URL passwords', () => {
    expect(redactUrl('https://u:pw@host.test/v2/x?access_token=t0k&page=2')).toBe(
      'https://u:%5Bredacted%5D@host.test/v2/x?access_token=%5Bredacted%5D&page=2',
    )
  })
})
