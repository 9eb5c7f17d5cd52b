import path from 'node:path'

// The embedded store keeps the 'files' bucket as a folder and gives its objects the public
// URLs /files/<path>; the built site must carry the files those URLs name. (On Supabase an
// image_url is an absolute Storage URL and is used as it is.)

/** The URL prefix of files kept in the embedded store's storage folder. */
export const storageUrlPrefix = '/files/'

const attributeValue = /"([^"]*)"/g

/**
 * Lists the distinct /files/… paths a page refers to: attribute values (or the URLs of a srcset)
 * that are site-relative storage URLs, or absolute ones on the site's own origin (og:image). A storage URL of another
 * host (Supabase Storage, whose paths also contain /files/) is not ours to copy.
 */
export function storageReferences(html: string, siteOrigin: string): string[] {
  const found = new Set<string>()
  for (const [, value] of html.matchAll(attributeValue)) {
    for (const url of srcsetDescriptor.test(value!) ? srcsetUrls(value!) : [value!]) {
      const local = url.startsWith(`${siteOrigin}/`) ? url.slice(siteOrigin.length) : url
      if (isStorageUrl(local)) found.add(local)
    }
  }
  return [...found]
}

// A srcset is "url 320w, url 640w": a URL, a width (or density) descriptor, a comma.
const srcsetDescriptor = /\s\d+(?:\.\d+)?[wx](?:,|$)/

/** Lists the URLs of a srcset attribute value (each candidate's first word; our URLs have no commas). */
function srcsetUrls(srcset: string): string[] {
  return srcset
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/)[0]!)
    .filter((url) => url !== '')
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
