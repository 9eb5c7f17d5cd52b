import { hash } from 'node:crypto'
import { deflateRawSync } from 'node:zlib'
import { SlugClaims, slugify } from '@roland/scripts/migrate/slug'
import { allBusinesses } from '@roland/scripts/catalog/queries'
import type { Business, Catalog } from '@roland/scripts/catalog/types'
import { profiled } from './build-profile.ts'
import { processMemo, processSlot } from '@roland/scripts/process-slot'
import { sameElements } from '@roland/scripts/same-elements'
import { hoursRows, unknownHoursText } from './hours.ts'

// The printable directory (/directory): every active business grouped by category, each with its
// phone, address and hours, in two columns on Letter paper.

/**
 * The most a page of the printable directory's own entries may weigh, as gzip of their words
 * (entryWords): every page's first round trip (its HTML and stylesheet, gzip) must fit in 14.6 KB
 * (issue 30), and the layout, the stylesheet, the heading and the links between the parts take
 * about 11.7 KB of it; an entry's markup adds about a third to its words (measured on the bench's
 * 10,000 businesses: 1,800 of words made 2,350 of entries; the heaviest page's first round trip
 * is then about 14.1 KB, leaving room for an alert banner). Up to this weight,
 * /directory is the whole directory on one page (the sample catalog, which prints on three
 * sheets); past it, /directory lists the categories, each printable on its own pages
 * /directory/{category}, /directory/{category}/2… of at most this weight (issue 50: 500 businesses
 * a page made 19.9 KB at 100,000 businesses).
 */
export const directoryPageBudget = 1_800

/** A business as the directory prints it. */
export interface DirectoryEntry {
  name: string
  slug: string
  phone: string | null
  address: string | null
  hours: string
}

/** A category of the directory: its name, its page's slug and its businesses, by name. */
export interface DirectorySection {
  category: string
  slug: string
  entries: DirectoryEntry[]
}

const shortDays: Record<string, string> = {
  Monday: 'Mon',
  Tuesday: 'Tue',
  Wednesday: 'Wed',
  Thursday: 'Thu',
  Friday: 'Fri',
  Saturday: 'Sat',
  Sunday: 'Sun',
}

/**
 * A business's week on one line, days with the same hours run together: "Mon–Fri 7:00 AM – 6:00 PM;
 * Sat 8:00 AM – 2:00 PM; Sun Closed". Without rows, its hours line as written, else "Hours not listed".
 */
export function compactHours(business: Pick<Business, 'hours' | 'hours_detail'>): string {
  const rows = hoursRows(business.hours_detail)
  if (rows.length === 0) return business.hours?.trim() || unknownHoursText
  const runs: Array<{ first: string; last: string; hours: string }> = []
  for (const row of rows) {
    const run = runs.at(-1)
    if (run && run.hours === row.hours) run.last = row.day
    else runs.push({ first: row.day, last: row.day, hours: row.hours })
  }
  if (runs.every((run) => run.hours === unknownHoursText)) return business.hours?.trim() || unknownHoursText
  return runs
    .filter((run) => run.hours !== unknownHoursText)
    .map((run) => {
      const days = run.first === run.last ? shortDays[run.first] : `${shortDays[run.first]}–${shortDays[run.last]}`
      return `${days} ${run.hours}`
    })
    .join('; ')
}

/** The directory of a catalog: its active businesses by category (categories by name, businesses by name). */
export function directorySections(catalog: Pick<Catalog, 'businesses'>): DirectorySection[] {
  let sections = sectionsByCatalog.get(catalog)
  if (!sections) sectionsByCatalog.set(catalog, (sections = profiled('directory sections', () => sectionsOf(catalog))))
  return sections
}

// The directory's pages, its index and the sitemap each ask for the sections and pages of one
// catalog: they are worked out once.
const sectionsByCatalog = new WeakMap<object, DirectorySection[]>()
const pagesBySections = new WeakMap<readonly DirectorySection[], DirectoryPage[]>()
const weightBySections = new WeakMap<readonly DirectorySection[], number>()

/**
 * Each business's entry, by the business as read: a process that builds again reads an unchanged
 * business as the same object (readCatalogFile's reuse), and its entry is not made again (at
 * 100,000 businesses, their hours alone took a quarter of a second a rebuild).
 */
const entryOf = processMemo('roland.site.directory-entries', (business: Business): DirectoryEntry => ({
  name: business.name,
  slug: business.slug,
  phone: business.phone?.trim() || null,
  address: business.address?.trim() || null,
  hours: compactHours(business),
}))

function sectionsOf(catalog: Pick<Catalog, 'businesses'>): DirectorySection[] {
  const sections = new Map<string, DirectorySection>()
  for (const business of allBusinesses(catalog)) {
    const category = business.category.trim() || 'Business'
    let section = sections.get(category)
    if (!section) sections.set(category, (section = { category, slug: slugify(category), entries: [] }))
    section.entries.push(entryOf(business))
  }
  const sorted = [...sections.values()].sort((a, b) => a.category.localeCompare(b.category, 'en'))
  // Two categories whose names make the same slug ("Food & Drink", "Food and Drink") get one each.
  const slugs = new SlugClaims()
  for (const section of sorted) section.slug = slugs.claim(section.slug || 'category')
  return sorted
}

/**
 * The words of an entry as its page prints and links them: the measure of its weight. The phone
 * is there twice, as printed and as the digits of its tel: link.
 */
const entryWords = processMemo('roland.site.directory-entry-words', (entry: DirectoryEntry): string => {
  const digits = entry.phone?.replace(/\D/g, '') ?? ''
  return `${entry.slug}\n${entry.name}\n${entry.phone ?? ''}\n${digits}\n${entry.address ?? ''}\n${entry.hours}\n`
})

/** The gzip weight of a run of entries' words (raw deflate: gzip without its 18 bytes of framing). */
export function weightOf(entries: readonly DirectoryEntry[]): number {
  return weightOfWords(entries.map(entryWords))
}

/** weightOf, from the entries' words (entryWords). */
function weightOfWords(words: readonly string[]): number {
  return deflateRawSync(words.join('')).byteLength
}

/**
 * Whether the directory is too heavy for one page, and is split into pages per category. Its pages,
 * its index and the sitemap each ask of the same sections: the whole directory is weighed once (at
 * 100,000 businesses, 10 MB of words and a third of a second each time).
 */
export function directoryIsSplit(sections: readonly DirectorySection[], budget = directoryPageBudget): boolean {
  let weight = weightBySections.get(sections)
  if (weight === undefined) {
    // Known by its sections' words (each hashed once: their parts are found by the same hash).
    const key = `whole:${hash('sha256', sections.map((section) => wordsOf(section.entries).hash).join(), 'base64url')}`
    const known = weighed().get(key)
    weight =
      typeof known === 'number' ? known : weightOfWords(sections.flatMap((section) => wordsOf(section.entries).words))
    remember(key, weight)
    weightBySections.set(sections, weight)
  }
  return weight > budget
}

/**
 * What the directory's compressions found, by a hash of the words they weighed: the weight of the
 * whole directory, and how a category's entries were cut into parts. A rebuild's directory is the
 * last build's but for the few businesses that changed: at 100,000 businesses, weighing it all
 * again took 0.9-1.0 s of each rebuild, hashing the words 0.25 s. One map for the process, whichever build's bundle asks: a process
 * that builds again (site/integrations/build-server.ts) loads this module anew for each build. A
 * build adds a few keys (the categories that changed); past `weighedKept` it starts again.
 */
const weighedSlot = processSlot<Map<string, number | number[]>>('roland.site.directory-weighed')
const weighedKept = 10_000

const weighed = () => weighedSlot.kept(() => new Map())

function remember(key: string, found: number | number[]): void {
  const map = weighed()
  if (map.size >= weighedKept) map.clear()
  map.set(key, found)
}

// A section's entries, their words (entryWords) and the hash of those, worked out once.
const wordsByEntries = new WeakMap<readonly DirectoryEntry[], { words: string[]; hash: string }>()

function wordsOf(entries: readonly DirectoryEntry[]): { words: string[]; hash: string } {
  let found = wordsByEntries.get(entries)
  if (!found) {
    const words = entries.map(entryWords)
    wordsByEntries.set(entries, (found = { words, hash: hashOfWords(words) }))
  }
  return found
}

/**
 * The last hash of each run of words, by its length and first words: a rebuild's sections are the
 * last build's words, the same strings (entryWords), but for the few businesses that changed, and
 * comparing them takes a millisecond where hashing them took a seventh of a second at 100,000.
 */
const hashedSlot = processSlot<Map<string, { words: readonly string[]; hash: string }>>('roland.site.directory-hashed')

function hashOfWords(words: readonly string[]): string {
  const hashed = hashedSlot.kept(() => new Map())
  const key = `${words.length}\n${words[0] ?? ''}`
  const last = hashed.get(key)
  if (last && sameElements(last.words, words)) return last.hash
  if (hashed.size >= weighedKept) hashed.clear()
  const made = hash('sha256', JSON.stringify(words), 'base64url')
  hashed.set(key, { words, hash: made })
  return made
}

/** A page of a split directory: part of one category's businesses. */
export interface DirectoryPage {
  /** Its path under /directory: the category's slug, then the part's number from the second on. */
  path: string
  section: DirectorySection
  part: number
  parts: number
}

/** The size of a category's first part to weigh, before any part says how many entries fit. */
const firstGuess = 16

/**
 * Cuts a category's entries into parts of at most `budget` (gzip of their words), each of at least
 * one entry, and each as full as it fits: one entry more would not. The parts of a category hold
 * about as many entries as each other, so each part is first weighed at the size of the one before,
 * then a fortieth more or less at a time, doubling, until one size fits and a larger one does not, and
 * the boundary between them is found by halving. That is four or five compressions of a part
 * rather than the thirteen or so of growing it sixteen entries at a time and cutting back one at a
 * time (at 100,000 businesses, a few thousand compressions each rebuild).
 */
function partsOf(entries: readonly DirectoryEntry[], budget: number): DirectoryEntry[][] {
  // Each entry's words are worked out once; a part is weighed several times.
  const { words, hash } = wordsOf(entries)
  const key = `parts:${budget}:${hash}`
  const sizes = weighed().get(key)
  if (Array.isArray(sizes)) {
    let start = 0
    return sizes.map((size) => entries.slice(start, (start += size)))
  }
  const parts = cutIntoParts(entries, words, budget)
  remember(
    key,
    parts.map((part) => part.length),
  )
  return parts
}

/** partsOf's cut, from the entries' words. */
function cutIntoParts(
  entries: readonly DirectoryEntry[],
  words: readonly string[],
  budget: number,
): DirectoryEntry[][] {
  const parts: DirectoryEntry[][] = []
  let start = 0
  let guess = firstGuess
  while (start < entries.length) {
    const rest = entries.length - start
    const fits = (count: number) => weightOfWords(words.slice(start, start + count)) <= budget
    // `fitting` entries fit (or are one, taken whatever it weighs); `over` do not, or are more than there are.
    let fitting = 1
    let over = rest + 1
    let probe = Math.min(Math.max(guess, 2), rest)
    let step = Math.max(1, Math.round(probe / 40))
    if (probe > fitting) {
      if (fits(probe)) {
        fitting = probe
        for (probe += step; probe < over && fits(probe); probe += step, step *= 2) fitting = probe
        over = Math.min(over, probe)
      } else {
        over = probe
        for (probe -= step; probe > fitting && !fits(probe); probe -= step, step *= 2) over = probe
        fitting = Math.max(fitting, probe)
      }
    }
    while (over - fitting > 1) {
      const middle = (fitting + over) >> 1
      if (fits(middle)) fitting = middle
      else over = middle
    }
    parts.push(entries.slice(start, start + fitting))
    start += fitting
    guess = fitting
  }
  return parts
}

/**
 * The pages of a split directory: a page per category, and a category heavier than `budget` in
 * parts (/directory/{slug}, /directory/{slug}/2…), so that every page fits the first round trip,
 * whatever the catalog.
 */
export function directoryPages(sections: readonly DirectorySection[], budget = directoryPageBudget): DirectoryPage[] {
  if (budget !== directoryPageBudget) return pagesOf(sections, budget)
  let pages = pagesBySections.get(sections)
  if (!pages) pagesBySections.set(sections, (pages = profiled('directory pages', () => pagesOf(sections, budget))))
  return pages
}

function pagesOf(sections: readonly DirectorySection[], budget: number): DirectoryPage[] {
  return sections.flatMap((section) => {
    const parts = partsOf(section.entries, budget)
    return parts.map((entries, index) => ({
      path: directoryPartPath(section.slug, index + 1).slice('/directory/'.length),
      section: { ...section, entries },
      part: index + 1,
      parts: parts.length,
    }))
  })
}

/** The path of part `part` (1-based) of a category of the split directory. */
export function directoryPartPath(slug: string, part: number): string {
  return part <= 1 ? `/directory/${slug}` : `/directory/${slug}/${part}`
}
