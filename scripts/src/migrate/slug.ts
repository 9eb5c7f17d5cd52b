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

/**
 * The slugs handed out in one list. Each is the first free one among base, base-2, base-3…; the
 * next number to try is kept for each base, so a list of 30,000 businesses of one name is numbered
 * in one pass, not 30,000 ever longer ones.
 */
export class SlugClaims {
  readonly #taken: Set<string>
  readonly #next = new Map<string, number>()

  /** `taken`: the slugs other businesses hold; each slug handed out is added to it. */
  constructor(taken = new Set<string>()) {
    this.#taken = taken
  }

  claim(base: string): string {
    // Slugs are only ever added, so a number passed over once stays taken.
    let n = this.#next.get(base) ?? 1
    let slug = n === 1 ? base : `${base}-${n}`
    while (this.#taken.has(slug)) slug = `${base}-${(n += 1)}`
    this.#next.set(base, n + 1)
    this.#taken.add(slug)
    return slug
  }
}
