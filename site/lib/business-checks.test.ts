import { describe, expect, test } from 'vitest'
import { makeBusiness } from '../../scripts/test/fixtures/catalog.ts'
import { assertPublishableBusinesses, UnpublishableBusinessError } from './business-checks.ts'

describe('assertPublishableBusinesses', () => {
  test('lets businesses with a name and an address through', () => {
    expect(() =>
      assertPublishableBusinesses([makeBusiness({ name: 'Roland General Store', address: '17500 Highway 300' })]),
    ).not.toThrow()
  })

  test('names every business without an address, and says how to fix it', () => {
    const check = () =>
      assertPublishableBusinesses([
        makeBusiness({ name: 'Roland Handyman', slug: 'roland-handyman', address: null }),
        makeBusiness({ name: 'Roland General Store', address: '17500 Highway 300' }),
        makeBusiness({ name: 'Valley Hardware', slug: 'valley-hardware', address: '   ' }),
      ])
    expect(check).toThrow(UnpublishableBusinessError)
    expect(check).toThrow(
      'Every business needs a name and an address, so the site was not built:\n' +
        '  - Roland Handyman (slug roland-handyman) has no address\n' +
        '  - Valley Hardware (slug valley-hardware) has no address\n' +
        'Add the missing line to its entry in Roland.txt and run the migration again (`pnpm roland migrate`), ' +
        'or fill in the name and address columns of its row in the businesses table.',
    )
  })

  test('names a business without a name by its slug', () => {
    expect(() => assertPublishableBusinesses([makeBusiness({ name: ' ', slug: 'nameless', address: null })])).toThrow(
      '  - The business with slug nameless has no name and no address\n',
    )
  })
})
