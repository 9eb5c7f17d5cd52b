import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FIXTURE_SITES, startFixtureSite, type FixtureSite } from '../../test/crawl-fixture-server.ts'
import { CrawlError } from './crawl-error.ts'
import { downloadImage, sniffImageType } from './download-image.ts'

function png(width: number, height: number): Buffer {
  const image = new PNG({ width, height })
  image.data.fill(0x80)
  return PNG.sync.write(image)
}

async function failure(promise: Promise<unknown>): Promise<CrawlError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(CrawlError)
  return error as CrawlError
}

describe('sniffImageType', () => {
  test.each([
    ['PNG', png(2, 2), 'image/png', 'png'],
    ['JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]), 'image/jpeg', 'jpg'],
    ['GIF', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), 'image/gif', 'gif'],
    [
      'WebP',
      Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 ')]),
      'image/webp',
      'webp',
    ],
    ['AVIF', Buffer.concat([Buffer.from([0, 0, 0, 0x1c]), Buffer.from('ftypavif')]), 'image/avif', 'avif'],
    ['ICO', Buffer.from([0, 0, 1, 0, 1, 0]), 'image/x-icon', 'ico'],
    [
      'SVG with an XML prolog',
      Buffer.from('<?xml version="1.0"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg"/>'),
      'image/svg+xml',
      'svg',
    ],
  ])('recognises %s by its bytes', (_name, bytes, contentType, extension) => {
    expect(sniffImageType(new Uint8Array(bytes))).toEqual({ contentType, extension })
  })

  test('recognises no image in an HTML page', () => {
    expect(
      sniffImageType(new Uint8Array(Buffer.from('<!DOCTYPE html><html><body>Not found</body></html>'))),
    ).toBeUndefined()
  })
})

describe('downloadImage', () => {
  let site: FixtureSite

  beforeAll(async () => {
    site = await startFixtureSite('wordpress-bakery', {
      '/cdn/storefront': (_request, response) =>
        void response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(png(4, 3)),
      '/cdn/disguised.png': (_request, response) =>
        void response
          .writeHead(200, { 'content-type': 'image/png' })
          .end('<!DOCTYPE html><html><body>Hotlinking not allowed</body></html>'),
      '/cdn/moved.jpg': (_request, response) =>
        void response.writeHead(301, { location: '/wp-content/uploads/2024/03/bakery-storefront.jpg' }).end(),
      '/cdn/poster.png': (_request, response) =>
        void response.writeHead(200, { 'content-type': 'image/png' }).end(png(600, 600)),
    })
  })

  afterAll(async () => {
    await site.close()
  })

  test('downloads a JPEG of a fixture site, byte for byte', async () => {
    const image = await downloadImage(site.url('/wp-content/uploads/2024/03/bakery-storefront.jpg'), {
      allowPrivateNetwork: true,
    })
    const file = await readFile(
      join(FIXTURE_SITES, 'wordpress-bakery/wp-content/uploads/2024/03/bakery-storefront.jpg'),
    )
    expect(image).toMatchObject({ contentType: 'image/jpeg', extension: 'jpg' })
    expect(Buffer.from(image.bytes).equals(file)).toBe(true)
  })

  test('follows a redirect and reports the final address', async () => {
    const image = await downloadImage(site.url('/cdn/moved.jpg'), { allowPrivateNetwork: true })
    expect(image.url).toBe(site.url('/wp-content/uploads/2024/03/bakery-storefront.jpg'))
  })

  test('trusts the bytes when the server sends an image as application/octet-stream', async () => {
    const image = await downloadImage(site.url('/cdn/storefront'), { allowPrivateNetwork: true })
    expect(image).toMatchObject({ contentType: 'image/png', extension: 'png' })
  })

  test('refuses an HTML page served as image/png', async () => {
    const error = await failure(downloadImage(site.url('/cdn/disguised.png'), { allowPrivateNetwork: true }))
    expect(error.code).toBe('not-an-image')
    expect(error.message).toContain('no known image format')
  })

  test('refuses a web page', async () => {
    const error = await failure(downloadImage(site.url('/about-us/'), { allowPrivateNetwork: true }))
    expect(error.code).toBe('not-an-image')
    expect(error.message).toContain('is text/html, not an image')
  })

  test('refuses a missing image with its status', async () => {
    const error = await failure(
      downloadImage(site.url('/wp-content/uploads/2019/01/gone.jpg'), { allowPrivateNetwork: true }),
    )
    expect(error).toMatchObject({ code: 'http-status', status: 404 })
  })

  test('stops downloading an image larger than the limit', async () => {
    const error = await failure(downloadImage(site.url('/cdn/poster.png'), { allowPrivateNetwork: true, maxBytes: 64 }))
    expect(error.code).toBe('too-large')
  })

  test('refuses a local address unless private networks are allowed', async () => {
    const error = await failure(downloadImage(site.url('/wp-content/uploads/2024/03/bakery-storefront.jpg')))
    expect(error.code).toBe('blocked-address')
  })
})
