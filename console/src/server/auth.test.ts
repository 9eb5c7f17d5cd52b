import { describe, expect, test } from 'vitest'
import { bearerToken, parseCookies, secretMatches, sessionCookie, SignInLimiter } from './auth.ts'

describe('secretMatches', () => {
  test('accepts the secret and refuses anything else, whatever its length', () => {
    expect(secretMatches('s3cret-value', 's3cret-value')).toBe(true)
    expect(secretMatches('s3cret-valuE', 's3cret-value')).toBe(false)
    expect(secretMatches('', 's3cret-value')).toBe(false)
    expect(secretMatches('s3cret-value-and-more', 's3cret-value')).toBe(false)
  })
})

describe('bearerToken', () => {
  test('reads the token of an Authorization: Bearer header', () => {
    expect(bearerToken('Bearer abc.DEF-123')).toBe('abc.DEF-123')
    expect(bearerToken('bearer  abc ')).toBe('abc')
    expect(bearerToken('Basic abc')).toBeNull()
    expect(bearerToken(undefined)).toBeNull()
  })
})

describe('parseCookies', () => {
  test('keeps the first value of each cookie', () => {
    const cookies = parseCookies('a=1; roland_console_session=xyz; a=2; broken')
    expect(cookies.get('a')).toBe('1')
    expect(cookies.get('roland_console_session')).toBe('xyz')
    expect(cookies.has('broken')).toBe(false)
  })
})

describe('sessionCookie', () => {
  test('is HttpOnly and SameSite=Strict, and its removal expires it', () => {
    expect(sessionCookie('id1', 60)).toBe('roland_console_session=id1; Path=/; HttpOnly; SameSite=Strict; Max-Age=60')
    expect(sessionCookie(null, 0)).toBe('roland_console_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0')
  })

  test('is Secure when the console is reached over HTTPS', () => {
    expect(sessionCookie('id1', 60, { secure: true })).toBe(
      'roland_console_session=id1; Path=/; HttpOnly; SameSite=Strict; Secure; Max-Age=60',
    )
  })
})

describe('SignInLimiter', () => {
  test('allows three wrong secrets, then locks the client out for a time that doubles with each one', () => {
    let now = 0
    const limiter = new SignInLimiter({ freeAttempts: 3, baseLockoutMs: 1000, maxLockoutMs: 4000 }, () => now)
    for (let i = 0; i < 3; i++) limiter.fail('127.0.0.1')
    expect(limiter.retryAfterMs('127.0.0.1')).toBe(0)
    limiter.fail('127.0.0.1')
    expect(limiter.retryAfterMs('127.0.0.1')).toBe(1000)
    now += 1000
    limiter.fail('127.0.0.1')
    expect(limiter.retryAfterMs('127.0.0.1')).toBe(2000)
    limiter.fail('127.0.0.1')
    limiter.fail('127.0.0.1')
    expect(limiter.retryAfterMs('127.0.0.1')).toBe(4000)
    expect(limiter.retryAfterMs('::1')).toBe(0)
    limiter.succeed('127.0.0.1')
    expect(limiter.retryAfterMs('127.0.0.1')).toBe(0)
  })
})
