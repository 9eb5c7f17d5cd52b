import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import type { EmbeddedStore } from '../src/store/embedded.ts'
import type { CatalogRead } from '../src/store/types.ts'
import { freshStore } from './support/fresh-store.ts'

// The console reads the catalog again at every rebuild: only the businesses changed since its last
// read, by the audit log. Each read must be what a whole read gives.

let store: EmbeddedStore
let last: CatalogRead | undefined

beforeEach(async () => {
  store = await freshStore()
  for (const [slug, name] of [
    ['big-rock-coffee', 'Big Rock Coffee'],
    ['lakeview-marina', 'Lakeview Marina'],
    ['roland-hardware', 'Roland Hardware'],
  ]) {
    await store.db.query(
      `insert into businesses (slug, name, category, address, website)
       values ($1, $2, 'Dining & Refreshments', '1 Main St, Roland, AR 72135', $3)`,
      [slug, name, `https://${slug}.example`],
    )
  }
  last = undefined
})
afterEach(async () => {
  await store.close()
})

/** Reads again from the last read, and checks the result against a whole read. */
async function readAgain(): Promise<CatalogRead['read']> {
  last = await store.followCatalog(last?.mark)
  expect(last.catalog).toEqual(await store.loadCatalog())
  return last.read
}

const idOf = async (slug: string) =>
  (await store.db.query<{ id: string }>('select id from businesses where slug = $1', [slug])).rows[0]!.id

describe('reading the catalog again', () => {
  test('reads nothing when nothing changed, and only the business changed otherwise', async () => {
    expect(await readAgain()).toBe('all')
    const whole = last!.catalog.businesses
    expect(await readAgain()).toBe(0)
    // Nothing changed: each business is the last read's own, as a rebuild that handed the catalog
    // ahead needs to tell it is the same (scripts/src/rebuild/astro-build.ts, sameCatalog).
    expect(last!.catalog.businesses).toHaveLength(whole.length)
    last!.catalog.businesses.forEach((business, i) => expect(business).toBe(whole[i]))
    await store.db.query(
      `update businesses set short_description = 'Espresso by the lake.' where slug = 'big-rock-coffee'`,
    )
    const before = last!.catalog.businesses
    expect(await readAgain()).toBe(1)
    expect(last!.catalog.businesses.find((b) => b.slug === 'big-rock-coffee')?.short_description).toBe(
      'Espresso by the lake.',
    )
    // The businesses that did not change are taken as the last read parsed them, not parsed again.
    const bySlug = (slug: string, businesses = last!.catalog.businesses) => businesses.find((b) => b.slug === slug)
    expect(bySlug('lakeview-marina')).toBe(bySlug('lakeview-marina', before))
    expect(bySlug('roland-hardware')).toBe(bySlug('roland-hardware', before))
    expect(bySlug('big-rock-coffee')).not.toBe(bySlug('big-rock-coffee', before))
  })

  test("reads a business again when its hours or services change, or it is renamed (the list's order)", async () => {
    await readAgain()
    const marina = await idOf('lakeview-marina')
    await store.db.query(
      `insert into business_hours (business_id, day_of_week, opens_at, closes_at) values ($1, 1, '08:00', '17:00')`,
      [marina],
    )
    await store.db.query(`insert into business_services (business_id, service_name) values ($1, 'Boat rentals')`, [
      marina,
    ])
    expect(await readAgain()).toBe(1)
    await store.db.query(`update businesses set name = 'Aardvark Hardware' where slug = 'roland-hardware'`)
    expect(await readAgain()).toBe(1)
    expect(last!.catalog.businesses.map((b) => b.slug)).toEqual([
      'roland-hardware',
      'big-rock-coffee',
      'lakeview-marina',
    ])
  })

  test('leaves out a business closed since, and takes in one added', async () => {
    await readAgain()
    await store.db.query(`update businesses set is_active = false where slug = 'big-rock-coffee'`)
    await store.db.query(
      `insert into businesses (slug, name, category, address) values ('cafe-two', 'Cafe Two', 'Dining & Refreshments', '2 Main St, Roland, AR 72135')`,
    )
    expect(await readAgain()).toBe(2)
    expect(last!.catalog.businesses.map((b) => b.slug)).toEqual(['cafe-two', 'lakeview-marina', 'roland-hardware'])
  })

  test('reads everything after a freshness finding changed (a website it hides is not in the audit log)', async () => {
    await readAgain()
    await store.db.query(
      `insert into listing_findings (business_id, kind, detail, seen_count) values ($1, 'website-unreachable', 'no answer', 3)`,
      [await idOf('big-rock-coffee')],
    )
    expect(await readAgain()).toBe('all')
    expect(last!.catalog.businesses.find((b) => b.slug === 'big-rock-coffee')?.website).toBeNull()
  })

  test('reads everything when the audit log no longer holds the entry the last read stopped at (a restore)', async () => {
    await store.db.query(`update businesses set phone = '501-555-0100' where slug = 'big-rock-coffee'`)
    await readAgain()
    await store.db.query('delete from audit_log where id = (select max(id) from audit_log)')
    await store.db.query(`update businesses set phone = '501-555-0199' where slug = 'lakeview-marina'`)
    expect(await readAgain()).toBe('all')
  })
})
