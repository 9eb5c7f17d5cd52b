import { describe, expect, test } from 'vitest'
import type { ShownImage } from './business-images.ts'
import { pictureLayouts, pictureOf, shareImageUrl, variantsFor, type ShownVariant } from './picture.ts'

const widths = [320, 640, 960, 1440]
const variants = (formats: ShownVariant['format'][], of = widths): ShownVariant[] =>
  formats.flatMap((format) => of.map((width) => ({ format, width, url: `/files/p-${width}.${format}` })))

const photo: ShownImage = {
  url: '/files/p.jpg',
  alt: 'The porch',
  generated: false,
  width: 2400,
  height: 1600,
  color: '#8a6e4b',
  variants: variants(['jpeg', 'webp', 'avif']),
}

describe('pictureOf', () => {
  test('offers AVIF, then WebP, then a JPEG fallback, each in every width, with the sizes of its place', () => {
    const picture = pictureOf(photo, 'hero')
    const { sizes } = pictureLayouts.hero
    expect(picture.sources).toEqual([
      {
        type: 'image/avif',
        srcset: '/files/p-320.avif 320w, /files/p-640.avif 640w, /files/p-960.avif 960w, /files/p-1440.avif 1440w',
        sizes,
      },
      {
        type: 'image/webp',
        srcset: '/files/p-320.webp 320w, /files/p-640.webp 640w, /files/p-960.webp 960w, /files/p-1440.webp 1440w',
        sizes,
      },
    ])
    expect(picture.img).toEqual({
      src: '/files/p-1440.jpeg',
      srcset: '/files/p-320.jpeg 320w, /files/p-640.jpeg 640w, /files/p-960.jpeg 960w, /files/p-1440.jpeg 1440w',
      sizes,
      width: 2400,
      height: 1600,
    })
  })

  test('falls back to PNG for a picture with transparency', () => {
    const logo = { ...photo, variants: variants(['png', 'avif', 'webp'], [200]) }
    const picture = pictureOf(logo, 'logo')
    expect(picture.sources.map((s) => s.type)).toEqual(['image/avif', 'image/webp'])
    expect(picture.img).toMatchObject({ src: '/files/p-200.png', srcset: '/files/p-200.png 200w', sizes: '80px' })
  })

  test('offers a place no wider derivatives than it can use, and always the narrowest', () => {
    expect(pictureOf(photo, 'card').img.srcset).toBe(
      '/files/p-320.jpeg 320w, /files/p-640.jpeg 640w, /files/p-960.jpeg 960w',
    )
    expect(pictureOf(photo, 'logo').sources[0]!.srcset).toBe('/files/p-320.avif 320w')
    expect(variantsFor(variants(['avif'], [400, 1440]), 320)).toEqual([
      { format: 'avif', width: 400, url: '/files/p-400.avif' },
    ])
  })

  test('loads the featured images first, lazily what is below the fold, the rest as usual', () => {
    expect(pictureOf(photo, 'hero').loading).toEqual({ fetchpriority: 'high' })
    expect(pictureOf(photo, 'featured-card').loading).toEqual({ fetchpriority: 'high' })
    expect(pictureOf(photo, 'photo').loading).toEqual({ loading: 'lazy', decoding: 'async' })
    expect(pictureOf(photo, 'card').loading).toEqual({ loading: 'lazy', decoding: 'async' })
    expect(pictureOf(photo, 'logo').loading).toEqual({})
  })

  test('shows the placeholder colour, and the blurred preview only when asked', () => {
    const blurred = { ...photo, blur: 'data:image/png;base64,AAAA' }
    expect(pictureOf(blurred, 'card').style).toEqual({ backgroundColor: '#8a6e4b' })
    expect(pictureOf(blurred, 'hero', { blur: true }).style).toEqual({
      backgroundColor: '#8a6e4b',
      backgroundImage: 'url(data:image/png;base64,AAAA)',
      backgroundSize: 'cover',
    })
  })

  test('serves an image without derivatives as it is, in the box of its place', () => {
    const plain: ShownImage = { url: '/files/logo.svg', alt: 'Logo', generated: false }
    expect(pictureOf(plain, 'photo')).toEqual({
      sources: [],
      img: { src: '/files/logo.svg', width: 600, height: 450 },
      loading: { loading: 'lazy', decoding: 'async' },
    })
    expect(pictureOf({ ...plain, width: 300, height: 100 }, 'logo').img).toEqual({
      src: '/files/logo.svg',
      width: 300,
      height: 100,
    })
  })
})

describe('shareImageUrl', () => {
  test('shares the widest JPEG (or PNG) derivative rather than the original, and the image itself without any', () => {
    expect(shareImageUrl(photo)).toBe('/files/p-1440.jpeg')
    expect(shareImageUrl({ ...photo, variants: variants(['png', 'avif'], [320, 640]) })).toBe('/files/p-640.png')
    expect(shareImageUrl({ ...photo, variants: [] })).toBe('/files/p.jpg')
  })
})
