import { describe, expect, test } from 'vitest'
import { fixtureCatalog, makeBusiness } from '../../scripts/test/fixtures/catalog.ts'
import { headlineFigures, roundedFigure } from './headline.ts'

describe('roundedFigure', () => {
  test('gives small counts exactly', () => {
    expect(roundedFigure(0)).toBe('0')
    expect(roundedFigure(6)).toBe('6')
  })

  test('rounds larger counts down to a multiple of five with a plus', () => {
    expect(roundedFigure(10)).toBe('10+')
    expect(roundedFigure(27)).toBe('25+')
    expect(roundedFigure(25)).toBe('25+')
  })
})

describe('headlineFigures', () => {
  test('counts the active businesses, and gives the fixed faith and community figures', () => {
    const businesses = Array.from({ length: 27 }, (_, i) => makeBusiness({ name: `Business ${i}` }))
    const figures = headlineFigures({
      businesses: [...businesses, makeBusiness({ name: 'Gone', is_active: false })],
      attractions: [],
    })
    expect(figures).toEqual([
      { value: '25+', label: 'Local Businesses' },
      { value: '0', label: 'Attractions' },
      { value: '6', label: 'Faith Communities' },
      { value: '1', label: 'Community' },
    ])
  })

  test('counts the businesses of the fixture catalog', () => {
    expect(headlineFigures(fixtureCatalog())[0]).toEqual({ value: '6', label: 'Local Businesses' })
  })
})
