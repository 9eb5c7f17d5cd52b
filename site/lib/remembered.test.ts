import { expect, test } from 'vitest'
import { remembered } from './remembered.ts'

test('computes each key once, and forgets everything past its limit rather than grow', () => {
  const asked: string[] = []
  const shout = remembered(
    (word: string, times: number) => {
      asked.push(`${word}×${times}`)
      return word.toUpperCase().repeat(times)
    },
    (word, times) => `${word}:${times}`,
    2,
  )
  expect(shout('hi', 2)).toBe('HIHI')
  expect(shout('hi', 2)).toBe('HIHI')
  expect(shout('hi', 1)).toBe('HI')
  expect(asked).toEqual(['hi×2', 'hi×1'])
  // A third key: the two known are forgotten, the third kept.
  expect(shout('yo', 1)).toBe('YO')
  expect(shout('yo', 1)).toBe('YO')
  expect(shout('hi', 2)).toBe('HIHI')
  expect(asked).toEqual(['hi×2', 'hi×1', 'yo×1', 'hi×2'])
})
