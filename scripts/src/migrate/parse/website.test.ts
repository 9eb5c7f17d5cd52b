import { describe, expect, test } from 'vitest'
import { findDomain, findUrl, normaliseWebsite } from './website.ts'

describe('findUrl and findDomain', () => {
  test('find a web address with a scheme or www, not inside an e-mail address', () => {
    expect(findUrl('See https://joecafe.example/menu.')).toBe('https://joecafe.example/menu')
    expect(findUrl('Visit www.joecafe.example today')).toBe('www.joecafe.example')
    expect(findUrl('joe@www.joecafe.example')).toBeNull()
  })

  test('find a bare domain in one case, not a place typed in mixed case', () => {
    expect(findDomain('BUFFALOCLIMB.EXAMPLE')).toBe('BUFFALOCLIMB.EXAMPLE')
    expect(findDomain('facebook.com/joecafe')).toBe('facebook.com/joecafe')
    expect(findDomain('Moved from St.Louis')).toBeNull()
    expect(findDomain('Version 2.5')).toBeNull()
  })
})

describe('normaliseWebsite', () => {
  test.each([
    ['joecafe.example', 'https://joecafe.example'],
    ['http://joecafe.example/', 'http://joecafe.example'],
    ['www.joecafe.example/menu?day=mon', 'https://www.joecafe.example/menu?day=mon'],
    ['none', null],
    ['joe@joecafe.example', null],
    ['not a site', null],
  ])('makes %s %s', (typed, website) => {
    expect(normaliseWebsite(typed)).toBe(website)
  })
})
