import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { MigrationError, runMigration } from '../src/migrate/job.ts'
import { type EmbeddedStore } from '../src/store/embedded.ts'
import { freshStore } from './support/fresh-store.ts'

const fixture = path.join(import.meta.dirname, 'fixtures', 'roland-small.txt')
let store: EmbeddedStore
let text: string
let dir: string

beforeAll(async () => {
  store = await freshStore()
  text = await readFile(fixture, 'utf8')
  dir = await mkdtemp(path.join(tmpdir(), 'roland-migrate-'))
})

afterAll(async () => {
  await store?.close()
  await rm(dir, { recursive: true, force: true })
})

beforeEach(async () => {
  await store.db.exec(`delete from businesses; delete from jobs; drop trigger if exists fail_on_slug on businesses;`)
})

const bytes = (s: string) => new TextEncoder().encode(s)
const migrate = (source: string, options: { reset?: boolean; dryRun?: boolean } = {}) =>
  runMigration({ store, source: { bytes: bytes(source), name: 'Roland.txt' }, ...options })

/** Everything the import can touch, to compare before and after a failed run. */
async function snapshot() {
  const tables = ['businesses', 'business_services', 'business_hours', 'business_images']
  const out: Record<string, unknown[]> = {}
  for (const table of tables) {
    out[table] = (await store.db.query(`select * from ${table} order by id`)).rows
  }
  return out
}

describe('runMigration', () => {
  test('imports every business with its services, hours and provenance', async () => {
    const result = await migrate(text)
    expect(result.summary).toEqual({ added: 4, updated: 0, unchanged: 0, deactivated: 0, conflicts: 0 })
    expect(result.businessCount).toBe(4)
    const catalog = await store.loadCatalog()
    const coffee = catalog.businesses.find((b) => b.name === 'Big Rock Coffee House')!
    expect(coffee).toMatchObject({
      slug: 'big-rock-coffee-house',
      category: 'Dining & Refreshments',
      phone: '(501) 555-0101',
      website: 'https://www.bigrockcoffee.example',
      is_active: true,
      is_featured: false,
    })
    // The provenance is the operators' (the public catalog leaves it out): read from the table.
    const { rows } = await store.db.query<{ metadata: Record<string, unknown> }>(
      `select metadata from businesses where slug = 'big-rock-coffee-house'`,
    )
    expect(rows[0]!.metadata).toMatchObject({ source: 'roland.txt', originalIndex: 0 })
    expect(typeof rows[0]!.metadata.migratedAt).toBe('string')
    expect(coffee.services.map((s) => [s.service_name, s.is_featured])).toEqual([
      ['Free Wi-Fi', true],
      ['Drive-thru', false],
      ['Outdoor seating', false],
    ])
    expect(coffee.hours_detail.find((h) => h.day_of_week === 1)).toMatchObject({
      opens_at: '06:00:00',
      closes_at: '18:00:00',
    })
    expect(coffee.hours_detail.find((h) => h.day_of_week === 0)).toMatchObject({ is_closed: true })
  })

  test('a second identical import changes nothing and keeps every id and image', async () => {
    await migrate(text)
    const before = await store.db.query<{ id: string; slug: string }>(`select id, slug from businesses order by slug`)
    const coffeeId = before.rows.find((r) => r.slug === 'big-rock-coffee-house')!.id
    await store.addImage({
      business_id: coffeeId,
      image_url: '/files/business-images/coffee-hero.png',
      alt_text: 'Big Rock Coffee House storefront',
      image_type: 'hero',
      is_primary: true,
      sort_order: 0,
      metadata: { sourceUrl: 'https://www.bigrockcoffee.example/hero.jpg' },
    })
    const again = await migrate(text)
    expect(again.summary).toEqual({ added: 0, updated: 0, unchanged: 4, deactivated: 0, conflicts: 0 })
    expect(again.businesses.every((b) => b.status === 'unchanged')).toBe(true)
    const after = await store.db.query<{ id: string; slug: string }>(`select id, slug from businesses order by slug`)
    expect(after.rows).toEqual(before.rows)
    const images = await store.db.query(`select image_url from business_images where business_id = $1`, [coffeeId])
    expect(images.rows).toEqual([{ image_url: '/files/business-images/coffee-hero.png' }])
  })

  test('updates a changed business in place and replaces its services', async () => {
    await migrate(text)
    const id = (await store.db.query<{ id: string }>(`select id from businesses where slug = 'lakeview-marina'`))
      .rows[0]!.id
    const changed = text.replace('501.555.0103', '501.555.0199').replace('Fishing licences\n', 'Boat storage\n')
    const result = await migrate(changed)
    expect(result.summary).toEqual({ added: 0, updated: 1, unchanged: 3, deactivated: 0, conflicts: 0 })
    const marina = (await store.loadCatalog()).businesses.find((b) => b.slug === 'lakeview-marina')!
    const after = await store.db.query<{ id: string }>(`select id from businesses where slug = 'lakeview-marina'`)
    expect(after.rows[0]!.id).toBe(id)
    expect(marina.phone).toBe('(501) 555-0199')
    expect(marina.services.map((s) => s.service_name)).toEqual(['Kayak rentals', 'Pontoon rentals', 'Boat storage'])
  })

  test('marks businesses no longer in the file inactive, and brings them back when they return', async () => {
    await migrate(text)
    const withoutInsurance = text.slice(0, text.indexOf('Pinnacle Insurance Agency'))
    const result = await migrate(withoutInsurance)
    expect(result.summary.deactivated).toBe(1)
    expect(result.deactivated).toEqual(['pinnacle-insurance-agency'])
    expect((await store.loadCatalog()).businesses.map((b) => b.slug)).not.toContain('pinnacle-insurance-agency')
    const back = await migrate(text)
    expect(back.summary).toMatchObject({ updated: 1, deactivated: 0 })
  })

  test('--reset removes what the file lacks, images included', async () => {
    await migrate(text)
    const coffeeId = (
      await store.db.query<{ id: string }>(`select id from businesses where slug = 'big-rock-coffee-house'`)
    ).rows[0]!.id
    await store.db.query(`insert into business_images (business_id, image_url) values ($1, '/files/x.png')`, [coffeeId])
    const withoutInsurance = text.slice(0, text.indexOf('Pinnacle Insurance Agency'))
    const result = await migrate(withoutInsurance, { reset: true })
    expect(result.summary).toEqual({ added: 3, updated: 0, unchanged: 0, deactivated: 0, conflicts: 0 })
    const counts = await store.db.query<{ businesses: number; images: number }>(
      `select (select count(*)::int from businesses) as businesses, (select count(*)::int from business_images) as images`,
    )
    expect(counts.rows[0]).toEqual({ businesses: 3, images: 0 })
  })

  test('a failure in the middle of the import leaves the database exactly as it was', async () => {
    await migrate(text)
    const before = await snapshot()
    // A real failure inside the transaction, on the third business of the file.
    await store.db.exec(`
      create or replace function fail_on_slug() returns trigger language plpgsql as $$
      begin raise exception 'disk full (injected)'; end $$;
      create trigger fail_on_slug before update or insert on businesses
        for each row when (new.slug = 'lakeview-marina') execute function fail_on_slug();`)
    const changed = text.replaceAll('555-01', '555-02').replace('501.555.0103', '501.555.0203')
    await expect(migrate(changed, { reset: true })).rejects.toThrow('Failed to insert businesses: disk full (injected)')
    await expect(migrate(changed)).rejects.toThrow(MigrationError)
    expect(await snapshot()).toEqual(before)
  })

  test('a dry run reports what would change and changes nothing, not even the job history', async () => {
    await migrate(text)
    const before = await snapshot()
    const jobs = (await store.jobs.list()).length
    const result = await migrate(
      text.replace('(501) 555-0104', '(501) 555-0177') + '\nNew Bakery - Fresh bread daily\n501-555-0105\n',
      {
        dryRun: true,
      },
    )
    expect(result.dryRun).toBe(true)
    expect(result.summary).toEqual({ added: 1, updated: 1, unchanged: 3, deactivated: 0, conflicts: 0 })
    expect(await snapshot()).toEqual(before)
    expect((await store.jobs.list()).length).toBe(jobs)
  })

  test('a dry run warns, naming the line, where it split two businesses typed without a blank line', async () => {
    const typed = `${text}\nHilltop Hardware\n(479) 555-0142\n123 Main St, Ozark, AR 72949\nOzark Diner\n(479) 555-0150\n`
    const result = await migrate(typed, { dryRun: true })
    const diner = result.businesses.find((business) => business.name === 'Ozark Diner')
    const line = typed.split('\n').indexOf('Ozark Diner') + 1
    expect(diner).toMatchObject({ status: 'added', line })
    expect(diner?.warnings).toContain(
      `started a new business at line ${line} without a blank line above it: check that "Ozark Diner" is not part of "Hilltop Hardware"`,
    )
    expect(result.summary.added).toBe(result.businesses.filter((business) => business.status === 'added').length)
  })

  test('records each run as a job, failures with their message', async () => {
    await migrate(text)
    await expect(migrate('')).rejects.toThrow()
    const [failed, succeeded] = await store.jobs.list()
    expect(succeeded).toMatchObject({ kind: 'migrate', status: 'succeeded' })
    expect(succeeded!.result).toMatchObject({ summary: { added: 4 } })
    expect(failed).toMatchObject({ kind: 'migrate', status: 'failed' })
    expect(failed!.error).toMatch(/Roland\.txt cannot be imported/)
    expect(failed!.finished_at).not.toBeNull()
  })
})

describe('bad input gets a clear error and changes nothing', () => {
  const cases: Array<[string, () => Promise<unknown>, RegExp]> = [
    ['an empty file', () => migrate(''), /Roland\.txt cannot be imported: .*empty/i],
    [
      'binary data',
      () => runMigration({ store, source: { bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]) } }),
      /binary|not a text/i,
    ],
    ['a file over 5 MB', () => migrate('x'.repeat(5 * 1024 * 1024 + 1)), /over the 5 MB limit/],
    ['a file with no recognisable entry', () => migrate('----\n\n====\n\n'), /Roland\.txt cannot be imported/],
    [
      'an unreadable path',
      () => runMigration({ store, source: { file: '/nonexistent/Roland.txt' } }),
      /Failed to download Roland\.txt: cannot read \/nonexistent\/Roland\.txt \(no such file\)/,
    ],
    [
      'a folder instead of a file',
      () => runMigration({ store, source: { file: tmpdir() } }),
      /Failed to download Roland\.txt: .* is not a file/,
    ],
    [
      'a bucket without Roland.txt',
      () => runMigration({ store, source: { bucket: true } }),
      /Failed to download Roland\.txt: the 'files' bucket .* has no Roland\.txt/,
    ],
  ]
  test.each(cases)('%s', async (_name, run, message) => {
    await migrate(text)
    const before = await snapshot()
    await expect(run()).rejects.toThrow(message)
    expect(await snapshot()).toEqual(before)
  })

  test('a file over 5 MB on disk is refused before it is read', async () => {
    const big = path.join(dir, 'big.txt')
    await writeFile(big, Buffer.alloc(5 * 1024 * 1024 + 10, 'a'))
    await expect(runMigration({ store, source: { file: big } })).rejects.toThrow(/over the 5 MB limit/)
  })
})

describe('the bucket source', () => {
  test('reads Roland.txt from the files bucket', async () => {
    await store.files.put('Roland.txt', bytes(text), { contentType: 'text/plain', upsert: true })
    const result = await runMigration({ store, source: { bucket: true } })
    expect(result.summary.added).toBe(4)
    await store.files.remove('Roland.txt')
  })
})

describe("the town's country", () => {
  const list = 'Thames Tea Room\n020 7946 0018\n1 High Street\nTea and cakes by the river.\n'
  const setCountry = (country: string) => store.db.query(`update town_settings set country = $1`, [country])

  test("reads the list's phones as they are dialled in the town's country (town_settings)", async () => {
    // In the United States '020 7946 0018' is no phone number: it stays in the description.
    const american = await migrate(list, { dryRun: true })
    expect(american.businesses[0]).toMatchObject({ name: 'Thames Tea Room', phone: null })
    await setCountry('GB')
    try {
      const british = await migrate(list, { dryRun: true })
      expect(british.businesses[0]).toMatchObject({
        name: 'Thames Tea Room',
        phone: '020 7946 0018',
        full_description: 'Tea and cakes by the river.',
      })
    } finally {
      await setCountry('US')
    }
  })

  test('refuses, changing nothing, when the country has no phone rules', async () => {
    await migrate(text)
    const before = await snapshot()
    await setCountry('ZZ')
    try {
      await expect(migrate(text)).rejects.toThrow(/the town's country "ZZ" has no phone rules.*Town screen/)
    } finally {
      await setCountry('US')
    }
    expect(await snapshot()).toEqual(before)
  })
})
