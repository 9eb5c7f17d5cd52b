import { SlugClaims, slugify } from '@roland/scripts/migrate/slug'
import { allBusinesses } from '@roland/scripts/catalog/queries'
import type { Business, Catalog } from '@roland/scripts/catalog/types'
import { profiled } from './build-profile.ts'
import { hoursRows, unknownHoursText } from './hours.ts'

// The printable directory (/directory): every active business grouped by category, each with its
// phone, address and hours, in two columns on Letter paper.

/**
 * Up to this many businesses, /directory is the whole directory on one page (the sample catalog
 * prints on three sheets; 500 businesses make about 150 KB of HTML and some 20 sheets). Past it, a
 * single page would be megabytes of HTML and hundreds of sheets nobody prints at once: /directory
 * then lists the categories, each printable on its own pages of at most this many businesses,
 * /directory/{category}, /directory/{category}/2… (at 100,000 businesses, about 200 pages).
 */
export const directoryPageLimit = 500

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
  return profiled('directory sections', () => sectionsOf(catalog))
}

function sectionsOf(catalog: Pick<Catalog, 'businesses'>): DirectorySection[] {
  const sections = new Map<string, DirectorySection>()
  for (const business of allBusinesses(catalog)) {
    const category = business.category.trim() || 'Business'
    let section = sections.get(category)
    if (!section) sections.set(category, (section = { category, slug: slugify(category), entries: [] }))
    section.entries.push({
      name: business.name,
      slug: business.slug,
      phone: business.phone?.trim() || null,
      address: business.address?.trim() || null,
      hours: compactHours(business),
    })
  }
  const sorted = [...sections.values()].sort((a, b) => a.category.localeCompare(b.category, 'en'))
  // Two categories whose names make the same slug ("Food & Drink", "Food and Drink") get one each.
  const slugs = new SlugClaims()
  for (const section of sorted) section.slug = slugs.claim(section.slug || 'category')
  return sorted
}

/** Whether the directory is too long for one page, and is split into a page per category. */
export function directoryIsSplit(sections: readonly DirectorySection[], limit = directoryPageLimit): boolean {
  return sections.reduce((sum, section) => sum + section.entries.length, 0) > limit
}

/** A page of a split directory: part of one category's businesses. */
export interface DirectoryPage {
  /** Its path under /directory: the category's slug, then the part's number from the second on. */
  path: string
  section: DirectorySection
  part: number
  parts: number
}

/**
 * The pages of a split directory: a page per category, and a category longer than
 * `limit` in parts of at most `limit` businesses (/directory/{slug}, /directory/{slug}/2…), so that
 * no page is megabytes whatever the catalog.
 */
export function directoryPages(sections: readonly DirectorySection[], limit = directoryPageLimit): DirectoryPage[] {
  return sections.flatMap((section) => {
    const parts = Math.max(1, Math.ceil(section.entries.length / limit))
    return Array.from({ length: parts }, (_, index) => ({
      path: index === 0 ? section.slug : `${section.slug}/${index + 1}`,
      section: { ...section, entries: section.entries.slice(index * limit, (index + 1) * limit) },
      part: index + 1,
      parts,
    }))
  })
}
