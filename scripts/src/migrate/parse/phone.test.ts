import { describe, expect, test } from 'vitest'
import { phoneFinder, phoneLineScore, withoutPhones } from './phone.ts'

describe('phoneFinder', () => {
  const phones = phoneFinder('US')

  test.each(['501-555-0123', '(501) 555-0123', '501.555.0123', '501/555-0123', '5015550123', '+1 501 555 0123'])(
    'reads %s as the town dials it',
    (typed) => {
      expect(phones(`Call ${typed}`).map(({ phone }) => phone)).toEqual(['(501) 555-0123'])
    },
  )

  test("writes another country's number in international form", () => {
    expect(phones('+44 20 7946 0958').map(({ phone }) => phone)).toEqual(['+44 20 7946 0958'])
  })

  test('finds none in a line with too few digits', () => {
    expect(phones('Open 9 to 5, six days')).toEqual([])
  })

  test('reads the same line once, however often it is asked', () => {
    expect(phones('501-555-0123')).toBe(phones('501-555-0123'))
  })
})

describe('phoneLineScore and withoutPhones', () => {
  const phones = phoneFinder('US')

  test('scores a number with a few calling words as a phone line, a sentence as not', () => {
    const line = 'Call or text Carla at 501-555-0123'
    expect(phoneLineScore(line, phones(line), false)).toBeGreaterThanOrEqual(0.8)
    const sentence = 'Our founder answered 501-555-0123 for forty years before he finally retired'
    expect(phoneLineScore(sentence, phones(sentence), false)).toBeLessThan(0.3)
  })

  test('takes the numbers out of a line', () => {
    expect(withoutPhones('12 Main St 501-555-0123', phones).trim()).toBe('12 Main St')
  })
})
