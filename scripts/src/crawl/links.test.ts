import { describe, expect, test } from 'vitest'
import { findPhotoPages, isSameSite } from './links.ts'

const HOME = 'https://www.rolandmarina.example/'

describe('isSameSite', () => {
  test('counts the www. and bare host as one site', () => {
    expect(isSameSite('https://rolandmarina.example/about', HOME)).toBe(true)
    expect(isSameSite('https://www.facebook.com/rolandmarina', HOME)).toBe(false)
  })
})

describe('findPhotoPages', () => {
  const nav = `<nav>
    <a href="/">Home</a>
    <a href="/contact-us/">Contact</a>
    <a href="/boat-rentals/">Rentals</a>
    <a href="/photos/">Photos</a>
    <a href="https://rolandmarina.example/about/">About the marina</a>
    <a href="/menu.pdf">Grill menu (PDF)</a>
    <a href="https://www.facebook.com/rolandmarina/photos">Facebook photos</a>
    <a href="mailto:dock@rolandmarina.example">Email</a>
    <a href="#hours">Hours</a>
    <a href="/?page_id=12">Our story</a>
  </nav>`

  test('ranks about pages first, then galleries, then the rest, and skips files, other sites and anchors', () => {
    expect(findPhotoPages(nav, HOME, 10)).toEqual([
      'https://rolandmarina.example/about/',
      `${HOME}?page_id=12`,
      `${HOME}photos/`,
      `${HOME}contact-us/`,
    ])
  })

  test('returns no more pages than asked for', () => {
    expect(findPhotoPages(nav, HOME, 2)).toHaveLength(2)
    expect(findPhotoPages(nav, HOME, 0)).toEqual([])
  })

  test('never returns the page itself', () => {
    expect(findPhotoPages('<a href="/gallery/">Gallery</a>', `${HOME}gallery/`, 5)).toEqual([])
  })
})
