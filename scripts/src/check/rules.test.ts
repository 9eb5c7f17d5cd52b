import { describe, expect, test } from 'vitest'
import {
  hoursFinding,
  listingFindings,
  movedAway,
  parkedEvidence,
  phoneFinding,
  registrableDomain,
  verifiedFinding,
} from './rules.ts'

describe('phoneFinding', () => {
  test('accepts a valid US number however it is written', () => {
    for (const phone of ['(501) 868-1234', '501.868.1234', '+1 501 868 1234', '(501) 868-1234 ext 2'])
      expect(phoneFinding(phone, 'US')).toBeNull()
  })

  test('flags a number too short, with an impossible exchange, or from another country', () => {
    for (const phone of ['555-12', '(501) 123-4567', '+44 20 7946 0958', 'call us'])
      expect(phoneFinding(phone, 'US')).toEqual({
        kind: 'phone-invalid',
        detail: `"${phone}" is not a valid US phone number`,
      })
  })

  test('says nothing of a listing without a phone', () => {
    expect(phoneFinding(null, 'US')).toBeNull()
    expect(phoneFinding('  ', 'US')).toBeNull()
  })
})

describe('hoursFinding', () => {
  test('accepts hours the parser reads', () => {
    expect(hoursFinding('Mon-Fri 7am-5pm, Sat 8am-noon')).toBeNull()
  })

  test('flags hours the parser cannot read, so "open now" cannot work', () => {
    expect(hoursFinding('By appointment, call first')?.kind).toBe('hours-unreadable')
  })
})

describe('verifiedFinding', () => {
  const now = new Date('2026-11-26T12:00:00Z')

  test('flags a listing never verified, or last verified over 365 days ago', () => {
    expect(verifiedFinding(null, now)).toEqual({ kind: 'unverified', detail: 'Never verified by an operator' })
    expect(verifiedFinding('2025-11-25T12:00:00Z', now)?.detail).toBe('Last verified on 2025-11-25, over 365 days ago')
  })

  test('accepts a verification within the year', () => {
    expect(verifiedFinding('2025-11-27T12:00:00Z', now)).toBeNull()
  })
})

describe('listingFindings', () => {
  test('adds no-photo for a listing with neither a photo nor a store image', () => {
    const listing = {
      id: 'x',
      slug: 'x',
      name: 'X',
      website: null,
      phone: null,
      hours: null,
      verified_at: '2026-11-01T00:00:00Z',
      has_image: false,
    }
    expect(listingFindings(listing, new Date('2026-11-26'), 'US')).toEqual([
      { kind: 'no-photo', detail: 'No photo and no store image' },
    ])
  })

  test("adds no no-photo for a store whose image comes from the site's fixed images", () => {
    const listing = {
      id: 'x',
      slug: 'big-box-store',
      name: 'Big Box Store',
      website: null,
      phone: null,
      hours: null,
      verified_at: '2026-11-01T00:00:00Z',
      has_image: false,
    }
    const fixed = { 'big-box-store': { image: '/images/big-box-store.jpg' } }
    expect(listingFindings(listing, new Date('2026-11-26'), 'US', fixed)).toEqual([])
    expect(listingFindings({ ...listing, slug: 'other-store' }, new Date('2026-11-26'), 'US', fixed)).toEqual([
      { kind: 'no-photo', detail: 'No photo and no store image' },
    ])
  })
})

describe('registrableDomain and movedAway', () => {
  test('reads the registrable domain, public suffixes included', () => {
    expect(registrableDomain('www.shop.example.co.uk')).toBe('example.co.uk')
    expect(registrableDomain('127.0.0.1')).toBe('127.0.0.1')
  })

  test('a redirect to https or www of the same domain is not a move; to another domain is', () => {
    expect(movedAway('http://bakery.example.com/', 'https://www.bakery.example.com/home')).toBe(false)
    expect(movedAway('http://bigrockcoffee.com/', 'https://newowner.com/')).toBe(true)
    expect(movedAway('http://127.0.0.1:4000/', 'http://127.0.0.2:4000/')).toBe(true)
  })
})

describe('parkedEvidence', () => {
  test('knows the parking services by the host a site lands on', () => {
    expect(parkedEvidence('https://www.hugedomains.com/domain_profile.cfm?d=bigrock', '')).toMatch(/hugedomains\.com/)
    expect(parkedEvidence('https://sedoparking.com/x', '')).toMatch(/sedoparking\.com/)
  })

  test('knows a parked page by the service it loads from or by its wording', () => {
    expect(parkedEvidence('https://bigrock.example/', '<script src="//www.parkingcrew.net/x.js"></script>')).toMatch(
      /parkingcrew\.net/,
    )
    expect(
      parkedEvidence(
        'https://bigrock.example/',
        '<script src="https://img1.wsimg.com/parking-lander/static/js"></script>',
      ),
    ).toMatch(/parking-lander/)
    expect(parkedEvidence('https://bigrock.example/', '<h1>This   domain is for sale!</h1>')).toMatch(
      /"this domain is for sale"/,
    )
    expect(parkedEvidence('https://bigrock.example/', '<a>Buy this domain</a>')).toMatch(/buy this domain/)
  })

  test('leaves a live business page alone, even one naming a host that merely ends like a service', () => {
    expect(
      parkedEvidence('https://jordan.com/', '<p>Visit our friends at jordan.com and sedan.com. Open daily.</p>'),
    ).toBeNull()
  })
})
