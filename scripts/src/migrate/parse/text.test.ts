import { describe, expect, test } from 'vitest'
import { BULLET, endsSentence, isShouted, leftover, stripTrailing } from './text.ts'

describe('text helpers', () => {
  test('endsSentence and stripTrailing read the end of a line', () => {
    expect(endsSentence('Open daily.')).toBe(true)
    expect(endsSentence('"Best pie in town!"')).toBe(true)
    expect(endsSentence('Joe Cafe')).toBe(false)
    expect(stripTrailing('joecafe.example).')).toBe('joecafe.example')
  })

  test('leftover counts the letters a pattern leaves', () => {
    expect(leftover('Email joe@cafe.example now', /\S+@\S+/)).toBe('Emailnow')
  })

  test('isShouted tells capitals from a short abbreviation', () => {
    expect(isShouted('CALL AHEAD')).toBe(true)
    expect(isShouted('BBQ')).toBe(true)
    expect(isShouted('Joe Cafe')).toBe(false)
    expect(isShouted('AR')).toBe(false)
  })

  test('BULLET finds list markers but never an area code', () => {
    expect(BULLET.test('• Joe Cafe')).toBe(true)
    expect(BULLET.test('12) Joe Cafe')).toBe(true)
    expect(BULLET.test('(501) 555-0101')).toBe(false)
  })
})
