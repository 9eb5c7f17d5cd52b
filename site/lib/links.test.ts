import { describe, expect, test } from 'vitest'
import { mailtoUrl, mapsSearchUrl, telUrl, websiteHost } from './links.ts'
import { fixtureTown } from '../../scripts/test/fixtures/catalog.ts'

const town = fixtureTown()

describe('mapsSearchUrl', () => {
  test('searches for the address plus Roland, AR', () => {
    const url = new URL(mapsSearchUrl('18000 Highway 300', town))
    expect(url.origin).toBe('https://www.google.com')
    expect(url.searchParams.get('query')).toBe('18000 Highway 300, Roland, AR')
  })

  test('does not name the town twice', () => {
    expect(new URL(mapsSearchUrl('1 Main St, Roland, AR 72135', town)).searchParams.get('query')).toBe(
      '1 Main St, Roland, AR 72135',
    )
  })
})

describe('telUrl', () => {
  test('writes US numbers in E.164', () => {
    expect(telUrl('(501) 555-0101', 'US')).toBe('tel:+15015550101')
    expect(telUrl('1-501-555-0101', 'US')).toBe('tel:+15015550101')
  })

  test('gives an extension as RFC 3966 ;ext=, however it is typed', () => {
    // The import writes an extension as ' ext. 12' (parse.ts); people type 'x12' or 'extension 12' too.
    expect(telUrl('(501) 555-0100 ext. 12', 'US')).toBe('tel:+15015550100;ext=12')
    expect(telUrl('501-555-0100 x12', 'US')).toBe('tel:+15015550100;ext=12')
    expect(telUrl('1-501-555-0100 extension 12', 'US')).toBe('tel:+15015550100;ext=12')
    expect(telUrl('+44 20 7946 0000 ext 305', 'US')).toBe('tel:+442079460000;ext=305')
  })

  test('keeps other numbers as digits and refuses text without digits', () => {
    expect(telUrl('911', 'US')).toBe('tel:911')
    expect(telUrl('+44 20 7946 0000', 'US')).toBe('tel:+442079460000')
    expect(telUrl('call us', 'US')).toBeNull()
  })

  test("follows the town's country: a British number dialled in Britain, and the US one with its + code", () => {
    expect(telUrl('020 7946 0018', 'GB')).toBe('tel:+442079460018')
    expect(telUrl('01632 960123 ext. 4', 'GB')).toBe('tel:+441632960123;ext=4')
    expect(telUrl('+1 (501) 555-0101', 'GB')).toBe('tel:+15015550101')
    expect(telUrl('999', 'GB')).toBe('tel:999')
    // The same digits dialled in the US are not a British number.
    expect(telUrl('020 7946 0018', 'US')).not.toBe('tel:+442079460018')
  })
})

describe('websiteHost', () => {
  test('shows the host without www', () => {
    expect(websiteHost('https://www.coffee.example/menu')).toBe('coffee.example')
    expect(websiteHost('not a url')).toBe('not a url')
  })
})

describe('mailtoUrl', () => {
  test('adds an encoded subject', () => {
    expect(mailtoUrl('a@b.example', 'Event: Fall Fair')).toBe('mailto:a@b.example?subject=Event%3A%20Fall%20Fair')
  })

  test('adds an encoded body when given one', () => {
    expect(mailtoUrl('a@b.example', 'Event', 'Title: Fair\nWhere: Park')).toBe(
      'mailto:a@b.example?subject=Event&body=Title%3A%20Fair%0AWhere%3A%20Park',
    )
  })
})
