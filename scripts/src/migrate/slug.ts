// The businesses.slug domain allows 120 characters; staying well under it leaves room for a '-2' suffix.
const MAX_SLUG_LENGTH = 100

/** Turns a business name into a URL slug: lower-case ASCII words joined by single hyphens. */
export function slugify(name: string): string {
  const words = name
    .normalize('NFKD')
    // Combining marks are what NFKD split off the accented letters: 'Café' becomes 'Cafe'.
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    // Letters NFKD leaves whole.
    .replace(/ß/g, 'ss')
    .replace(/æ/g, 'ae')
    .replace(/œ/g, 'oe')
    .replace(/ø/g, 'o')
    .replace(/ł/g, 'l')
    .replace(/&/g, ' and ')
    // Hyphens, slashes and underscores separate words ('Stop-N-Go' reads as three words), while
    // apostrophes and dots join them ("Joe's" is 'joes', 'A.J.' is 'aj').
    .replace(/[\s\-‐‑‒–—―/\\_+]+/g, ' ')
    .replace(/[^a-z0-9 ]/g, '')
    .trim()
    .split(/ +/)
    .filter((word) => word.length > 0)
  let slug = ''
  for (const word of words) {
    const next = slug === '' ? word : `${slug}-${word}`
    if (next.length > MAX_SLUG_LENGTH) break
    slug = next
  }
  return slug === '' ? words.join('').slice(0, MAX_SLUG_LENGTH) : slug
}

/** Claims the first free slug among base, base-2, base-3…, recording it in taken. */
export function claimUniqueSlug(base: string, taken: Set<string>): string {
  let slug = base
  for (let n = 2; taken.has(slug); n += 1) slug = `${base}-${n}`
  taken.add(slug)
  return slug
}
