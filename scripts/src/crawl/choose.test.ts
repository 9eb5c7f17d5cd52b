import { describe, expect, test } from 'vitest'
import type { ImageCandidate } from './candidates.ts'
import { chooseImages, imageKey, isImageUrl, pixelReason, tinyReason } from './choose.ts'

const PAGE = 'https://rolandtire.example/'

let position = 0
function candidate(url: string, fields: Partial<ImageCandidate> = {}): ImageCandidate {
  return {
    url: new URL(url, PAGE).href,
    source: 'img',
    pageUrl: PAGE,
    alt: undefined,
    width: undefined,
    height: undefined,
    isLogo: false,
    isHero: false,
    position: position++,
    ...fields,
  }
}

describe('isImageUrl', () => {
  test.each([
    '/a.jpg',
    '/a.JPEG',
    '/a.png?v=2',
    '/a.webp',
    '/a.avif',
    '/a.gif',
    '/a.svg',
    '/v1/fill/w_980/a~mv2.jpg/v1/x',
  ])('accepts %s by its extension', (url) => {
    expect(isImageUrl(new URL(url, PAGE).href)).toBe(true)
  })

  test('accepts an address without extension that says image or photo', () => {
    expect(isImageUrl('https://images.squarespace-cdn.com/content/v1/1/IMG_4821')).toBe(true)
    expect(isImageUrl('https://rolandtire.example/photo?id=12')).toBe(true)
  })

  test('refuses other addresses, icons included', () => {
    expect(isImageUrl('https://rolandtire.example/favicon.ico')).toBe(false)
    expect(isImageUrl('https://rolandtire.example/brochure.pdf')).toBe(false)
    expect(isImageUrl('https://secure.gravatar.com/avatar/5f1c?s=96')).toBe(false)
  })
})

describe('pixelReason', () => {
  test('names a declared 1×1 image a tracking pixel', () => {
    expect(pixelReason({ url: 'https://rolandtire.example/t.png', width: 1, height: 1 })).toBe('tracking pixel (1×1)')
  })

  test('names known pixel endpoints whatever their size', () => {
    expect(
      pixelReason({ url: 'https://www.facebook.com/tr?id=1&ev=PageView', width: undefined, height: undefined }),
    ).toContain('facebook.com')
    expect(pixelReason({ url: 'https://pixel.wp.com/g.gif?v=ext', width: 6, height: 5 })).toContain('pixel.wp.com')
    expect(pixelReason({ url: 'https://rolandtire.example/pixel.gif', width: undefined, height: undefined })).toContain(
      'tracking pixel',
    )
  })

  test('names lazy-load placeholders', () => {
    expect(pixelReason({ url: 'https://rolandtire.example/img/blank.gif', width: undefined, height: undefined })).toBe(
      'placeholder image',
    )
  })

  test('leaves a photo alone', () => {
    expect(
      pixelReason({ url: 'https://rolandtire.example/img/pixel-perfect-alignment.jpg', width: 800, height: 600 }),
    ).toBeUndefined()
  })
})

describe('tinyReason', () => {
  test('names an image declared under 64 pixels each way an icon or badge', () => {
    expect(tinyReason({ width: 56, height: 56 })).toBe('icon or badge (56×56, under 64 px)')
    expect(tinyReason({ width: 32, height: 32 })).toBe('icon or badge (32×32, under 64 px)')
  })

  test('leaves an image of 64 pixels, a wide wordmark or an undeclared size alone', () => {
    expect(tinyReason({ width: 64, height: 64 })).toBeUndefined()
    expect(tinyReason({ width: 240, height: 40 })).toBeUndefined()
    expect(tinyReason({ width: undefined, height: 40 })).toBeUndefined()
  })
})

describe('chooseImages junk', () => {
  test('rejects sprites, icon fonts, spacers, shims and tiny images with their reasons, offering none of them', () => {
    const choice = chooseImages([
      candidate('/ui/icons.svg', {
        source: 'preload',
        isHero: true,
        junk: 'sprite (a file of icons shown one at a time)',
      }),
      candidate('/img/shim.gif', { width: 600, height: 2 }),
      candidate('/img/spacer.gif'),
      candidate('/img/badge.png', { width: 60, height: 40 }),
      candidate('/img/shop.jpg', { width: 1200, height: 800 }),
    ])
    expect(choice.images.map((image) => new URL(image.url).pathname)).toEqual(['/img/shop.jpg'])
    expect(choice.rejected.map(({ reason }) => reason)).toEqual([
      'sprite (a file of icons shown one at a time)',
      'spacer (600×2)',
      'placeholder image',
      'icon or badge (60×40, under 64 px)',
    ])
  })
})

describe('imageKey', () => {
  test('counts WordPress resized copies as one picture', () => {
    const key = imageKey('https://rolandtire.example/wp-content/uploads/2024/03/shop.jpg')
    expect(imageKey('https://rolandtire.example/wp-content/uploads/2024/03/shop-1024x683.jpg')).toBe(key)
    expect(imageKey('https://rolandtire.example/wp-content/uploads/2024/03/shop-scaled.jpg')).toBe(key)
    expect(imageKey('http://rolandtire.example/wp-content/uploads/2024/03/shop@2x.jpg')).toBe(key)
  })

  test('counts CDN resizing parameters and Wix transforms as one picture', () => {
    expect(imageKey('https://images.squarespace-cdn.com/a/b.jpg?format=2500w')).toBe(
      imageKey('https://images.squarespace-cdn.com/a/b.jpg'),
    )
    expect(imageKey('https://static.wixstatic.com/media/ab12~mv2.jpg/v1/fill/w_980,h_551/ab12~mv2.jpg')).toBe(
      imageKey('https://static.wixstatic.com/media/ab12~mv2.jpg'),
    )
  })

  test('keeps parameters that name a different picture', () => {
    expect(imageKey('https://rolandtire.example/photo?id=1')).not.toBe(
      imageKey('https://rolandtire.example/photo?id=2'),
    )
  })
})

describe('chooseImages', () => {
  test('takes og:image as the hero, a second good photo as the thumbnail and the marked logo', () => {
    const choice = chooseImages([
      candidate('/share.jpg', { source: 'og:image', isHero: true, width: 1200, height: 630 }),
      candidate('/logo.png', { isLogo: true, width: 300, height: 120 }),
      candidate('/bays.jpg', { width: 1024, height: 683 }),
      candidate('/tires.jpg', { width: 640, height: 480 }),
    ])
    expect(choice).toMatchObject({
      heroUrl: 'https://rolandtire.example/share.jpg',
      thumbnailUrl: 'https://rolandtire.example/bays.jpg',
      logoUrl: 'https://rolandtire.example/logo.png',
    })
  })

  test('takes the largest content image as the hero when there is no og:image', () => {
    const choice = chooseImages([
      candidate('/small.jpg', { width: 400, height: 300 }),
      candidate('/large.jpg', { width: 1600, height: 900 }),
      candidate('/medium.jpg', { width: 800, height: 600 }),
    ])
    expect(choice.heroUrl).toBe('https://rolandtire.example/large.jpg')
    expect(choice.thumbnailUrl).toBe('https://rolandtire.example/medium.jpg')
  })

  test('never takes the logo as the hero, even when the site shares it as og:image', () => {
    const choice = chooseImages([
      candidate('/brand/roland-tire-logo.png', { source: 'og:image', isLogo: true, isHero: true }),
      candidate('/brand/roland-tire-logo.png', { isLogo: true }),
      candidate('/shop-front.jpg', { width: 1200, height: 800 }),
    ])
    expect(choice.logoUrl).toBe('https://rolandtire.example/brand/roland-tire-logo.png')
    expect(choice.heroUrl).toBe('https://rolandtire.example/shop-front.jpg')
  })

  test('uses the hero as the thumbnail when there is no second good image', () => {
    const choice = chooseImages([
      candidate('/only.jpg', { width: 1200, height: 800 }),
      candidate('/badge.png', { width: 120, height: 120 }),
    ])
    expect(choice.thumbnailUrl).toBe(choice.heroUrl)
    expect(choice.heroUrl).toBe('https://rolandtire.example/only.jpg')
  })

  test('prefers a JSON-LD logo over an image marked as a logo', () => {
    const choice = chooseImages([
      candidate('/header-logo.png', { isLogo: true }),
      candidate('/schema-logo.png', { source: 'json-ld-logo', isLogo: true }),
    ])
    expect(choice.logoUrl).toBe('https://rolandtire.example/schema-logo.png')
  })

  test('falls back to the largest apple-touch-icon for the logo, never to a plain favicon', () => {
    const withTouchIcon = chooseImages([
      candidate('/favicon-32x32.png', { source: 'icon', width: 32, height: 32 }),
      candidate('/apple-touch-icon-120.png', { source: 'apple-touch-icon', width: 120, height: 120 }),
      candidate('/apple-touch-icon-180.png', { source: 'apple-touch-icon', width: 180, height: 180 }),
    ])
    expect(withTouchIcon.logoUrl).toBe('https://rolandtire.example/apple-touch-icon-180.png')
    expect(
      chooseImages([candidate('/favicon-32x32.png', { source: 'icon', width: 32, height: 32 })]).logoUrl,
    ).toBeNull()
  })

  test('keeps icons, SVG drawings, thin strips and small badges out of the hero and thumbnail', () => {
    const choice = chooseImages([
      candidate('/apple-touch-icon.png', { source: 'apple-touch-icon', width: 180, height: 180 }),
      candidate('/icons/wrench.svg', { width: 800, height: 800 }),
      candidate('/divider.png', { width: 1200, height: 20 }),
      candidate('/bbb-badge.png', { width: 150, height: 150 }),
    ])
    expect(choice.heroUrl).toBeNull()
    expect(choice.thumbnailUrl).toBeNull()
  })

  test('drops data: URIs, tracking pixels and non-image addresses, saying why', () => {
    const choice = chooseImages([
      candidate('data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'),
      candidate('https://www.facebook.com/tr?id=1234&ev=PageView&noscript=1', { width: 1, height: 1 }),
      candidate('/favicon.ico', { source: 'icon' }),
    ])
    expect(choice.images).toEqual([])
    expect(choice.rejected.map((rejected) => rejected.reason)).toEqual([
      'data: URI (an inline placeholder, not a picture we can store)',
      'tracking pixel (1×1)',
      'not an image address (no jpg, jpeg, png, webp, avif, gif or svg extension, no "image" or "photo")',
    ])
    expect(choice.rejected[0]?.url.length).toBeLessThan(40)
  })

  test('merges copies of one picture, keeping the largest and every place it was found', () => {
    const choice = chooseImages([
      candidate('/uploads/shop-300x200.jpg', { width: 300, height: 200 }),
      candidate('/uploads/shop-1024x683.jpg', { source: 'linked-image', width: 1024, height: 683 }),
      candidate('/uploads/shop-768x512.jpg', { source: 'picture', width: 768, height: 512 }),
    ])
    expect(choice.images).toHaveLength(1)
    expect(choice.images[0]).toMatchObject({
      url: 'https://rolandtire.example/uploads/shop-1024x683.jpg',
      sources: ['img', 'linked-image', 'picture'],
    })
  })

  test('prefers the unresized original to resized copies, even of unknown size', () => {
    const choice = chooseImages([
      candidate('/uploads/shop-1024x683.jpg', { width: 1024, height: 683 }),
      candidate('/uploads/shop.jpg', { source: 'json-ld-image' }),
    ])
    expect(choice.images.map((image) => image.url)).toEqual(['https://rolandtire.example/uploads/shop.jpg'])
  })

  test('keeps the declared size when the same address is named twice', () => {
    const choice = chooseImages([
      candidate('/share.jpg', { source: 'og:image', width: 1200, height: 630 }),
      candidate('/share.jpg', { source: 'json-ld-image' }),
    ])
    expect(choice.images[0]).toMatchObject({ width: 1200, height: 630 })
  })

  test('trusts a hero section over an ordinary image of unknown size', () => {
    const choice = chooseImages([
      candidate('/gallery-1.jpg'),
      candidate('/front.jpg', { source: 'background', isHero: true }),
    ])
    expect(choice.heroUrl).toBe('https://rolandtire.example/front.jpg')
  })

  test('marks the roles of the chosen images', () => {
    const choice = chooseImages([
      candidate('/logo.png', { isLogo: true }),
      candidate('/one.jpg', { width: 1000, height: 800 }),
    ])
    expect(choice.images.map((image) => image.roles)).toEqual([['logo'], ['hero', 'thumbnail']])
  })

  test('finds nothing on a page with no images', () => {
    expect(chooseImages([])).toEqual({ heroUrl: null, thumbnailUrl: null, logoUrl: null, images: [], rejected: [] })
  })
})
