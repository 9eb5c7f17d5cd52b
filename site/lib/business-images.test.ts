import { describe, expect, test } from 'vitest'
import type { BusinessImage } from '@roland/scripts/catalog/types'
import { makeBusiness } from '../../scripts/test/fixtures/catalog.ts'
import { cardImage, featuredImage, firstImage, imageAlt, logoImage, photoImages } from './business-images.ts'

let counter = 0
const image = (fields: Partial<BusinessImage>): BusinessImage => ({
  id: `00000000-0000-4000-9000-${String(++counter).padStart(12, '0')}`,
  business_id: '00000000-0000-4000-8000-000000000001',
  image_url: `/files/business-images/${counter}.png`,
  alt_text: null,
  image_type: 'gallery',
  is_primary: false,
  sort_order: counter,
  metadata: {},
  width: null,
  height: null,
  placeholder: null,
  variants: [],
  ...fields,
})

const logo = image({ image_url: '/logo.png', image_type: 'logo', is_primary: true, alt_text: 'Logo' })
const gallery = image({ image_url: '/gallery.png' })
const hero = image({ image_url: '/hero.png', image_type: 'hero' })
const primary = image({ image_url: '/primary.png', is_primary: true })
const generated = image({ image_url: '/generated.png', metadata: { generated: true } })

describe('featuredImage', () => {
  test('prefers the fixed image an operator set for the business', () => {
    const business = makeBusiness({ name: 'Big Box', images: [generated, primary] })
    expect(featuredImage(business, { image: '/big-box.jpg' })?.url).toBe('/big-box.jpg')
  })

  test('takes a generated image before the primary one, and says it is generated', () => {
    expect(featuredImage(makeBusiness({ name: 'A', images: [primary, generated] }))).toMatchObject({
      url: '/generated.png',
      generated: true,
    })
    expect(featuredImage(makeBusiness({ name: 'A', images: [primary] }))?.generated).toBe(false)
  })

  test('takes the primary image before one typed hero', () => {
    expect(featuredImage(makeBusiness({ name: 'A', images: [hero, primary] }))?.url).toBe('/primary.png')
  })

  test('takes an image typed hero before the first image', () => {
    expect(featuredImage(makeBusiness({ name: 'A', images: [gallery, hero] }))?.url).toBe('/hero.png')
  })

  test('falls back to the first image that is not a logo', () => {
    expect(featuredImage(makeBusiness({ name: 'A', images: [logo, gallery] }))?.url).toBe('/gallery.png')
  })

  test('returns null for a business with no images but a logo', () => {
    expect(featuredImage(makeBusiness({ name: 'A', images: [logo] }))).toBeNull()
    expect(featuredImage(makeBusiness({ name: 'A' }))).toBeNull()
  })
})

describe('logoImage', () => {
  test('uses the primary logo', () => {
    expect(logoImage(makeBusiness({ name: 'A', images: [primary, logo] }))?.url).toBe('/logo.png')
  })

  test('uses the primary image when the business has no logo', () => {
    expect(logoImage(makeBusiness({ name: 'A', images: [gallery, primary] }))).toEqual({
      url: '/primary.png',
      alt: 'A logo',
      generated: false,
    })
  })

  test('returns null when there is neither logo nor primary image', () => {
    expect(logoImage(makeBusiness({ name: 'A', images: [gallery] }))).toBeNull()
  })
})

describe('cardImage', () => {
  test('uses the primary image, else the first', () => {
    expect(cardImage(makeBusiness({ name: 'A', images: [gallery, primary] }))?.url).toBe('/primary.png')
    expect(cardImage(makeBusiness({ name: 'A', images: [hero, gallery] }))?.url).toBe('/hero.png')
    expect(cardImage(makeBusiness({ name: 'A' }))).toBeNull()
  })
})

describe('firstImage', () => {
  test('uses the first image whatever its type, with generated alt text when it has none', () => {
    expect(firstImage(makeBusiness({ name: 'Cafe', images: [gallery, primary] }))).toEqual({
      url: '/gallery.png',
      alt: 'Cafe photo 1',
      generated: false,
    })
    expect(firstImage(makeBusiness({ name: 'Cafe' }))).toBeNull()
  })
})

describe('photoImages', () => {
  test('lists at most four images that are not logos, in order', () => {
    const images = [logo, ...[1, 2, 3, 4, 5].map((n) => image({ image_url: `/p${n}.png` }))]
    expect(photoImages(makeBusiness({ name: 'A', images })).map((p) => p.url)).toEqual([
      '/p1.png',
      '/p2.png',
      '/p3.png',
      '/p4.png',
    ])
  })
})

describe('imageAlt', () => {
  test('uses the image alt text, else a text made from the business name and position', () => {
    expect(imageAlt(image({ alt_text: 'The porch' }), { name: 'Cafe' }, 1)).toBe('The porch')
    expect(imageAlt(image({ alt_text: '  ' }), { name: 'Cafe' }, 2)).toBe('Cafe photo 2')
  })
})

describe('a processed image', () => {
  const thumbHash = '1QcSHQRnh493V4dIh4eXh1h4kJUI' // a brownish photo, as the thumbhash package encodes one
  const variant = (format: 'avif' | 'jpeg', width: number) => ({
    format,
    width,
    height: Math.round(width / 1.5),
    url: `/files/p-${width}.${format}`,
    bytes: width * 10,
  })
  const processed = image({
    image_url: '/files/p.jpg',
    is_primary: true,
    width: 2400,
    height: 1600,
    placeholder: thumbHash,
    variants: [320, 640, 960, 1440].flatMap((width) => [variant('avif', width), variant('jpeg', width)]),
  })
  const business = makeBusiness({ name: 'Cafe', images: [processed] })

  test('carries its intrinsic size, its placeholder colour and its derivatives', () => {
    const shown = featuredImage(business)!
    expect(shown).toMatchObject({ url: '/files/p.jpg', width: 2400, height: 1600 })
    expect(shown.color).toMatch(/^#[0-9a-f]{6}$/)
    expect(shown.variants).toHaveLength(8)
    expect(shown.variants![0]).toEqual({ format: 'avif', width: 320, url: '/files/p-320.avif' })
  })

  test('gets a blurred preview as the featured image only', () => {
    expect(featuredImage(business)!.blur).toMatch(/^data:image\/png;base64,/)
    expect(cardImage(business)!.blur).toBeUndefined()
    expect(photoImages(business)[0]!.blur).toBeUndefined()
  })

  test('keeps on a card only the widths a card uses, so the search index stays small', () => {
    expect(cardImage(business)!.variants!.map((v) => v.width)).toEqual([320, 320, 640, 640, 960, 960])
    expect(logoImage(business)!.variants!.map((v) => v.width)).toEqual([320, 320])
  })
})
