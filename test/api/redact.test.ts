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

  it('masks a secret value of any type: a number, an object, a list, a value cut short', () => {
    expect(redactText('{"access_token":12345678901,"token_type":"bearer"}')).toBe(
      '{"access_token":"[redacted]","token_type":"bearer"}',
    )
    expect(
      redactText('{"token": -1.5e3 , "client_secret" :{"v":"s}3\\"c","n":[1,{}]},"a":2}'),
    ).toBe('{"token": "[redacted]" , "client_secret" :"[redacted]","a":2}')
    expect(redactText('{"password":["p1","p2"]}')).toBe('{"password":"[redacted]"}')
    expect(redactText('got {"access_token": 987654321012')).toBe(
      'got {"access_token": "[redacted]"',
    )
    expect(redactText('got {"access_token":{"jwt":"abc.de')).toBe(
      'got {"access_token":"[redacted]"',
    )
  })

  it('leaves true, false and null: they tell nothing', () => {
    const body = '{"access_token":null,"secret":false,"token":true}'
    expect(redactText(body)).toBe(body)
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

describe('redaction of known values', () => {
  it('masks each known value wherever it appears, as is or percent-encoded', () => {
    const known = ['s3c/r+t', 'tok-123456']
    expect(redactText('saw s3c/r+t, s3c%2Fr%2Bt and tok-123456tok-123456', known)).toBe(
      'saw [redacted], [redacted] and [redacted][redacted]',
    )
  })

  it('masks the longer of two overlapping values whole', () => {
    expect(redactText('token abcd-efgh-ijkl', ['efgh', 'abcd-efgh-ijkl'])).toBe('token [redacted]')
  })

  it('leaves values too short to tell from ordinary text', () => {
    expect(redactText('page 1 of 12', ['1'])).toBe('page 1 of 12')
  })

  it('masks an Authorization value by its key, with or without a scheme', () => {
    expect(redactText('{"Authorization":"xyz"}')).toBe('{"Authorization":"[redacted]"}')
    expect(redactText('authorization=xyz&a=b')).toBe('authorization=[redacted]&a=b')
  })
})
