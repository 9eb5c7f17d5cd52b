import { describe, expect, test } from 'vitest'
import { SlugClaims } from '../slug.ts'
import { newDraft } from './draft.ts'
import { finish, shorten, SHORT_DESCRIPTION_LIMIT } from './finish.ts'

describe('finish', () => {
  test('says what is missing, and numbers the slug of a second business of one name', () => {
    const slugs = new SlugClaims()
    finish(newDraft('Zyx Qwerty', 1), 0, slugs)
    const second = finish(newDraft('Zyx Qwerty', 5), 1, slugs)
    expect(second).toMatchObject({ index: 1, line: 5, slug: 'zyx-qwerty-2', hours: null, full_description: null })
    expect(second.warnings).toEqual([
      'no phone found',
      'no address found',
      'no description found',
      'no category could be told from the name or description: set to Business',
      'duplicate name: renamed slug to zyx-qwerty-2',
    ])
  })

  test('reads the hours into rows, and keeps hours it cannot read as text with a warning', () => {
    const draft = { ...newDraft('Joe Cafe', 1), hours: 'Daily 7am-3pm' }
    expect(finish(draft, 0, new SlugClaims()).hours_detail).toHaveLength(7)
    const vague = finish({ ...draft, hours: 'Kitchen Tue-Sat 7am-3pm' }, 0, new SlugClaims())
    expect(vague.hours_detail).toEqual([])
    expect(vague.warnings).toContain('hours kept as text only: the days and times could not be read with confidence')
  })

  test('ends each paragraph but the last with a full stop, and takes the category the entry names', () => {
    const draft = { ...newDraft('Joe Cafe', 1), paragraphs: ['Diner food', 'Pie all day'], categoryLabel: 'Dining' }
    const business = finish(draft, 0, new SlugClaims())
    expect(business.full_description).toBe('Diner food.\n\nPie all day')
    expect(business.short_description).toBe('Diner food')
    expect(business.category).toBe('Dining & Refreshments')
  })

  test('refuses a name with a control character in it, naming the line', () => {
    expect(() => finish(newDraft('Joe\u200bCafe\u0007', 7), 0, new SlugClaims())).toThrow(/line 7/)
  })
})

describe('shorten', () => {
  test('keeps the leading sentences within the limit, else cuts with an ellipsis', () => {
    const sentence = 'Pie and coffee at the counter every morning, made by hand in the kitchen out back. '
    expect(shorten(sentence.repeat(3).trim())).toBe(sentence.trim())
    const long = 'word '.repeat(60).trim()
    expect(shorten(long)).toHaveLength(SHORT_DESCRIPTION_LIMIT)
    expect(shorten(long).endsWith('...')).toBe(true)
  })

  test('does not end a sentence at an abbreviation', () => {
    const text = `Find us on Main St. next to the bank, ${'across from the park '.repeat(8)}`
    expect(shorten(text).startsWith('Find us on Main St. next')).toBe(true)
  })
})
