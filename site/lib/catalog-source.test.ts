import { describe, expect, test } from 'vitest'
import type { BusinessImage } from '@roland/scripts/catalog/types'
import { fixtureCatalog, makeBusiness } from '../../scripts/test/fixtures/catalog.ts'
import { withoutMissingFiles } from './catalog-source.ts'

const image = (image_url: string): BusinessImage => ({
  id: '00000000-0000-4000-9000-000000000001',
  business_id: '00000000-0000-4000-8000-000000000001',
  image_url,
  alt_text: null,
  image_type: 'gallery',
  is_primary: false,
  sort_order: 0,
  metadata: {},
})

describe('withoutMissingFiles', () => {
  test('leaves out storage images whose file is gone, and says which', () => {
    const business = makeBusiness({ name: 'Cafe', images: [image('/files/a.png'), image('/files/gone.png')] })
    const { catalog, dropped } = withoutMissingFiles({ ...fixtureCatalog(), businesses: [business] }, (url) => url !== '/files/gone.png')
    expect(catalog.businesses[0]!.images.map((i) => i.image_url)).toEqual(['/files/a.png'])
    expect(dropped).toEqual([{ slug: 'cafe', url: '/files/gone.png' }])
  })

  test('keeps absolute image URLs, such as Supabase Storage, without looking for a file', () => {
    const url = 'https://abcd.supabase.co/storage/v1/object/public/files/business-images/a.png'
    const business = makeBusiness({ name: 'Cafe', images: [image(url)] })
    const { catalog, dropped } = withoutMissingFiles({ ...fixtureCatalog(), businesses: [business] }, () => false)
    expect(catalog.businesses[0]!.images.map((i) => i.image_url)).toEqual([url])
    expect(dropped).toEqual([])
  })
})
