import { describe, expect, test } from 'vitest'
import { consoleOrigins, crossSiteReason, isHttps } from './origin.ts'

const origins = consoleOrigins(4322)
const behindProxy = consoleOrigins(4322, new URL('https://console.example.org'))

describe('crossSiteReason', () => {
  test('lets the console’s own pages and scripts through', () => {
    expect(crossSiteReason({ host: '127.0.0.1:4322' }, origins)).toBeNull()
    expect(
      crossSiteReason(
        { host: 'localhost:4322', origin: 'http://localhost:4322', 'sec-fetch-site': 'same-origin' },
        origins,
      ),
    ).toBeNull()
    expect(crossSiteReason({ host: '127.0.0.1:4322', 'sec-fetch-site': 'none' }, origins)).toBeNull()
  })

  test('refuses another origin, another port of the same host, and cross-site fetches', () => {
    expect(crossSiteReason({ host: '127.0.0.1:4322', origin: 'http://evil.example' }, origins)).toMatch(/evil\.example/)
    expect(crossSiteReason({ host: '127.0.0.1:4322', origin: 'http://127.0.0.1:4321' }, origins)).toMatch(/Cross-site/)
    expect(crossSiteReason({ host: '127.0.0.1:4322', origin: 'null' }, origins)).toMatch(/Cross-site/)
    expect(crossSiteReason({ host: '127.0.0.1:4322', 'sec-fetch-site': 'same-site' }, origins)).toMatch(/same-site/)
    expect(crossSiteReason({ host: '127.0.0.1:4322', 'sec-fetch-site': 'cross-site' }, origins)).toMatch(/cross-site/)
  })

  test('refuses a Host that is not the console’s (DNS rebinding)', () => {
    expect(crossSiteReason({ host: 'attacker.example:4322' }, origins)).toMatch(/attacker\.example/)
    expect(crossSiteReason({ host: '127.0.0.1:9999' }, origins)).not.toBeNull()
    expect(crossSiteReason({}, origins)).not.toBeNull()
    expect(crossSiteReason({ host: 'console.example.org', 'x-forwarded-proto': 'https' }, origins)).toMatch(
      /console\.example\.org/,
    )
  })
})

describe('crossSiteReason behind a reverse proxy (CONSOLE_PUBLIC_URL)', () => {
  const viaProxy = { host: 'console.example.org', 'x-forwarded-proto': 'https' }

  test('accepts the public address over https, with its own origin, and loopback as before', () => {
    expect(crossSiteReason(viaProxy, behindProxy)).toBeNull()
    expect(crossSiteReason({ ...viaProxy, origin: 'https://console.example.org' }, behindProxy)).toBeNull()
    expect(crossSiteReason({ host: '127.0.0.1:4322' }, behindProxy)).toBeNull()
  })

  test('refuses a foreign Host, a foreign Origin, the http origin of the public name, and a request that came over http', () => {
    expect(crossSiteReason({ ...viaProxy, host: 'evil.example' }, behindProxy)).toMatch(/evil\.example/)
    expect(crossSiteReason({ ...viaProxy, origin: 'https://evil.example' }, behindProxy)).toMatch(/Cross-site/)
    expect(crossSiteReason({ ...viaProxy, origin: 'http://console.example.org' }, behindProxy)).toMatch(/Cross-site/)
    expect(crossSiteReason({ ...viaProxy, 'x-forwarded-proto': 'http' }, behindProxy)).toMatch(/over http/)
    expect(crossSiteReason({ host: 'console.example.org' }, behindProxy)).toMatch(/over http/)
    expect(crossSiteReason({ host: '127.0.0.1:4322', origin: 'https://console.example.org' }, behindProxy)).toMatch(
      /Cross-site/,
    )
  })
})

describe('isHttps', () => {
  test('is true only for the public https address', () => {
    expect(isHttps({ host: 'console.example.org' }, behindProxy)).toBe(true)
    expect(isHttps({ host: '127.0.0.1:4322' }, behindProxy)).toBe(false)
    expect(isHttps({ host: '127.0.0.1:4322' }, origins)).toBe(false)
  })
})
