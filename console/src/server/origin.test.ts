import { describe, expect, test } from 'vitest'
import { allowedHosts, crossSiteReason } from './origin.ts'

const hosts = allowedHosts(4322)

describe('crossSiteReason', () => {
  test('lets the console’s own pages and scripts through', () => {
    expect(crossSiteReason({ host: '127.0.0.1:4322' }, hosts)).toBeNull()
    expect(
      crossSiteReason(
        { host: 'localhost:4322', origin: 'http://localhost:4322', 'sec-fetch-site': 'same-origin' },
        hosts,
      ),
    ).toBeNull()
    expect(crossSiteReason({ host: '127.0.0.1:4322', 'sec-fetch-site': 'none' }, hosts)).toBeNull()
  })

  test('refuses another origin, another port of the same host, and cross-site fetches', () => {
    expect(crossSiteReason({ host: '127.0.0.1:4322', origin: 'http://evil.example' }, hosts)).toMatch(/evil\.example/)
    expect(crossSiteReason({ host: '127.0.0.1:4322', origin: 'http://127.0.0.1:4321' }, hosts)).toMatch(/Cross-site/)
    expect(crossSiteReason({ host: '127.0.0.1:4322', origin: 'null' }, hosts)).toMatch(/Cross-site/)
    expect(crossSiteReason({ host: '127.0.0.1:4322', 'sec-fetch-site': 'same-site' }, hosts)).toMatch(/same-site/)
    expect(crossSiteReason({ host: '127.0.0.1:4322', 'sec-fetch-site': 'cross-site' }, hosts)).toMatch(/cross-site/)
  })

  test('refuses a Host that is not the console’s (DNS rebinding)', () => {
    expect(crossSiteReason({ host: 'attacker.example:4322' }, hosts)).toMatch(/attacker\.example/)
    expect(crossSiteReason({ host: '127.0.0.1:9999' }, hosts)).not.toBeNull()
    expect(crossSiteReason({}, hosts)).not.toBeNull()
  })
})
