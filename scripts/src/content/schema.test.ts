import { describe, expect, test } from 'vitest'
import {
  attractionPatchSchema,
  businessCreateSchema,
  businessPatchSchema,
  eventCreateSchema,
  eventPatchSchema,
  imagePatchSchema,
  phoneE164,
  submissionSchema,
  submissionSchemasFor,
  textCharacterProblem,
} from './schema.ts'

/** The first issue's path and message, or null when the value passes. */
function firstIssue(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const issue = result.error?.issues[0]
  return issue ? { path: issue.path.join('.'), message: issue.message } : null
}

describe('textCharacterProblem', () => {
  test('takes text with tabs and line breaks', () => {
    expect(textCharacterProblem('Description', 'Catfish\tand fries.\nOpen late.')).toBeNull()
  })

  test.each(['\u0000', '\u0001', '\u0007', '\u000B', '\u000C', '\r', '\u001B', '\u007F', '\u0085', '\u009F'])(
    'refuses the control character %j, naming the field and the character',
    (char) => {
      const hex = char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')
      expect(textCharacterProblem('Address', `12 Main${char} St`)).toBe(
        `Address contains an invisible control character (U+${hex}): remove it (only tabs and line breaks may be in a text)`,
      )
    },
  )

  test.each(['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'])(
    'refuses the bidirectional control %j in a name, and takes it in free text',
    (char) => {
      expect(textCharacterProblem('Name', `Bank${char}`, 'name')).toMatch(/^Name contains a bidirectional control/)
      expect(textCharacterProblem('Description', `Bank${char}`)).toBeNull()
    },
  )

  test('takes the right-to-left text itself and the marks that are not overrides', () => {
    expect(textCharacterProblem('Name', 'مطعم الأرز \u200F Café', 'name')).toBeNull()
  })
})

describe('the content schemas refuse control characters in every text field', () => {
  test.each([
    ['a business name', businessPatchSchema, { name: 'Joe\u0000s Diner' }, 'name', 'Name'],
    ['a business address', businessPatchSchema, { address: '12 Main\u0007 St' }, 'address', 'Address'],
    ['a business website', businessPatchSchema, { website: 'https://example.com/\u0001' }, 'website', 'Website'],
    [
      'a service',
      businessCreateSchema,
      { name: 'Joe', services: [{ service_name: 'Tea\u001B' }] },
      'services.0.service_name',
      'Service name',
    ],
    ['a photo’s alt text', imagePatchSchema, { alt_text: 'Front\u007F door' }, 'alt_text', 'Alt text'],
    ['an event title', eventPatchSchema, { title: 'Fish\u0000 fry' }, 'title', 'Title'],
    ['an attraction badge', attractionPatchSchema, { badge: 'New\u0002' }, 'badge', 'Badge'],
  ] as const)('in %s', (_what, schema, value, path, label) => {
    expect(firstIssue(schema.safeParse(value))).toEqual({
      path,
      message: expect.stringMatching(new RegExp(`^${label} contains an invisible control character \\(U\\+00`)),
    })
  })

  test('and bidirectional controls in names and titles, but not in descriptions', () => {
    expect(firstIssue(businessPatchSchema.safeParse({ name: '\u202EknaB' }))?.path).toBe('name')
    expect(firstIssue(attractionPatchSchema.safeParse({ name: 'Lake\u2066' }))?.path).toBe('name')
    expect(
      firstIssue(
        eventCreateSchema.safeParse({
          title: '\u202Dfree',
          starts_at: '2027-07-04T19:00:00-05:00',
          location: 'Park',
          event_type: 'Social',
        }),
      )?.path,
    ).toBe('title')
    expect(businessPatchSchema.safeParse({ full_description: 'Menu in \u2067עברית\u2069 too' }).success).toBe(true)
  })

  test('a textarea’s CRLF and a lone CR become newlines, not refusals', () => {
    const parsed = businessPatchSchema.parse({ full_description: 'Open late.\r\n\r\nCash only.\rNo checks.' })
    expect(parsed.full_description).toBe('Open late.\n\nCash only.\nNo checks.')
  })

  test('a visitor’s suggestion is refused the same way, its contact too', () => {
    const event = { title: 'Fish fry', starts_at: '2027-06-01T18:00:00-05:00', location: 'Park', event_type: 'Social' }
    expect(
      firstIssue(submissionSchema.safeParse({ kind: 'event', payload: { ...event, location: 'Pa\u0000rk' } })),
    ).toEqual({
      path: 'payload.location',
      message: expect.stringMatching(/^Location contains an invisible control character \(U\+0000\)/),
    })
    expect(
      firstIssue(submissionSchema.safeParse({ kind: 'event', payload: event, contact: { name: 'Ann\u202E' } }))?.path,
    ).toBe('contact.name')
    expect(
      submissionSchema.safeParse({ kind: 'event', payload: { ...event, description: 'Bring a chair.\r\nAnd a hat.' } })
        .success,
    ).toBe(true)
  })
})

describe("a visitor's suggestion follows the town's country (town_settings.country)", () => {
  const newBusiness = (country: string, phone: string) =>
    firstIssue(submissionSchemasFor(country).payloads['new-business'].safeParse({ name: 'Corner Shop', phone }))

  test('in the US a US number passes and a British one is refused with the US message', () => {
    expect(newBusiness('US', '(501) 555-0123')).toBeNull()
    expect(newBusiness('US', '020 7946 0018')).toEqual({
      path: 'phone',
      message: 'Phone must be a US phone number, such as (501) 555-0123',
    })
  })

  test('in GB a British number passes in every kind and the body, a US-only one is refused', () => {
    const gb = submissionSchemasFor('GB')
    expect(newBusiness('GB', '020 7946 0018')).toBeNull()
    expect(newBusiness('GB', '(501) 555-0123')?.message).toMatch(/country \(GB\)/)
    const update = { business: 'corner-shop', phone: '020 7946 0018' }
    expect(gb.payloads['business-update'].safeParse(update).success).toBe(true)
    expect(gb.submission.safeParse({ kind: 'business-update', payload: update }).success).toBe(true)
    expect(submissionSchema.safeParse({ kind: 'business-update', payload: update }).success).toBe(false)
  })

  test('phoneE164 writes a number by the country, and leaves short codes alone', () => {
    expect(phoneE164('020 7946 0018', 'GB')).toBe('+442079460018')
    expect(phoneE164('(501) 555-0123', 'US')).toBe('+15015550123')
    expect(phoneE164('999', 'GB')).toBeNull()
  })
})
