import { describe, expect, test } from 'vitest'
import { isStorageUrl, storageFilePath, storageReferences } from './storage-files.ts'

describe('storageReferences', () => {
  const site = 'https://roland.example'

  test('finds each storage path once, relative or on the site itself', () => {
    const html =
      '<img src="/files/business-images/a-hero.png"><img src="/files/business-images/a-hero.png">' +
      '<meta property="og:image" content="https://roland.example/files/business-images/b.png">'
    expect(storageReferences(html, site)).toEqual(['/files/business-images/a-hero.png', '/files/business-images/b.png'])
  })

  test('finds every URL of a srcset, and the src beside it', () => {
    const html =
      '<source type="image/avif" srcset="/files/b/a-320.avif 320w, /files/b/a-640.avif 640w" sizes="100vw">' +
      '<img src="/files/b/a.jpg" srcset="/files/b/a-320.jpg 320w,/files/b/a-640.jpg 640w" alt="Coffee, 320w">'
    expect(storageReferences(html, site)).toEqual([
      '/files/b/a-320.avif',
      '/files/b/a-640.avif',
      '/files/b/a.jpg',
      '/files/b/a-320.jpg',
      '/files/b/a-640.jpg',
    ])
  })

  test('leaves out storage URLs of other hosts, such as Supabase Storage', () => {
    const html = '<img src="https://abcd.supabase.co/storage/v1/object/public/files/business-images/a.png">'
    expect(storageReferences(html, site)).toEqual([])
  })

  test('finds nothing in a page without storage files', () => {
    expect(storageReferences('<a href="/businesses">Businesses</a>', site)).toEqual([])
  })
})

describe('isStorageUrl', () => {
  test('accepts site-relative storage URLs and refuses absolute ones', () => {
    expect(isStorageUrl('/files/business-images/a.png')).toBe(true)
    expect(isStorageUrl('https://abcd.supabase.co/storage/v1/object/public/files/a.png')).toBe(false)
  })
})

describe('storageFilePath', () => {
  test('maps a storage URL into the storage folder, decoding escapes', () => {
    expect(storageFilePath('/files/business-images/a%20b.png', '/data/storage/files')).toBe(
      '/data/storage/files/business-images/a b.png',
    )
  })

  test('refuses paths that would leave the storage folder', () => {
    expect(storageFilePath('/files/../db/PG_VERSION', '/data/storage/files')).toBeNull()
    expect(storageFilePath('/files/%2e%2e/secret', '/data/storage/files')).toBeNull()
  })

  test('returns null for URLs outside storage', () => {
    expect(storageFilePath('https://example.com/a.png', '/data/storage/files')).toBeNull()
  })
})
