import { describe, expect, test } from 'vitest'
import { servicesToText, textToServices } from './services.ts'

describe('servicesToText and textToServices', () => {
  test('read back what they write', () => {
    const services = [
      { service_name: 'Boarding', description: 'overnight stays' },
      { service_name: 'Grooming', description: null },
    ]
    expect(servicesToText(services)).toBe('Boarding: overnight stays\nGrooming')
    expect(textToServices(servicesToText(services))).toEqual(services)
  })

  test('skip blank lines and trim each part, keeping a colon without a space in the name', () => {
    expect(textToServices(' Espresso \n\nPie:  on Sundays \nOpen 7:30 daily')).toEqual([
      { service_name: 'Espresso', description: null },
      { service_name: 'Pie', description: 'on Sundays' },
      { service_name: 'Open 7:30 daily', description: null },
    ])
  })
})
