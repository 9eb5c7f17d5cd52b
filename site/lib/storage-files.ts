import path from 'node:path'

// The embedded store keeps the 'files' bucket as a folder and gives its objects the public
// URLs /files/<path>; the built site must carry the files those URLs name. (On Supabase an
// image_url is an absolute Storage URL and is used as it is.)

/** The URL prefix of files kept in the embedded store's storage folder. */
export const storageUrlPrefix = '/files/'

const reference = /\/files\/[A-Za-z0-9._~%\-/]+/g

/** Lists the distinct /files/… paths a page refers to (src, href, content attributes). */
export function storageReferences(html: string): string[] {
  return [...new Set(html.match(reference) ?? [])]
}

/** Tells whether a URL points into the embedded store's storage (a site-relative /files/… URL). */
export function isStorageUrl(url: string): boolean {
  return url.startsWith(storageUrlPrefix)
}

/**
 * Maps a /files/… URL to the file in the storage folder, or null when it is not a storage URL
 * or would leave the folder.
 */
export function storageFilePath(url: string, storageRoot: string): string | null {
  if (!isStorageUrl(url)) return null
  let objectPath: string
  try {
    objectPath = decodeURIComponent(url.slice(storageUrlPrefix.length).split(/[?#]/)[0]!)
  } catch {
    return null
  }
  const clean = path.posix.normalize(objectPath)
  if (clean === '.' || clean.startsWith('..') || path.posix.isAbsolute(clean)) return null
  return path.join(storageRoot, ...clean.split('/'))
}
