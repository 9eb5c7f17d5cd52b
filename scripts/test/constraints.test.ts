import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type EmbeddedStore } from '../src/store/embedded.ts'
import { freshStore } from './support/fresh-store.ts'

let store: EmbeddedStore
let businessId: string

beforeAll(async () => {
  store = await freshStore()
  const { rows } = await store.db.query<{ id: string }>(
    `insert into businesses (slug, name) values ('big-rock-coffee', 'Big Rock Coffee') returning id`,
  )
  businessId = rows[0]!.id
})

afterAll(async () => {
  await store?.close()
})

const image = (url: string, type: string, primary: boolean) =>
  store.addImage({
    business_id: businessId,
    image_url: url,
    alt_text: null,
    image_type: type as 'hero',
    is_primary: primary,
    sort_order: 0,
    metadata: {},
  })

const primaries = async () =>
  (
    await store.db.query<{ image_url: string; image_type: string }>(
      `select image_url, image_type from business_images where business_id = $1 and is_primary order by image_type`,
      [businessId],
    )
  ).rows

describe('the one-primary rule', () => {
  test('adding a primary image clears the primary flag on the other images of the same type', async () => {
    await image('/files/hero-1.png', 'hero', true)
    await image('/files/logo-1.png', 'logo', true)
    await image('/files/hero-2.png', 'hero', true)
    expect(await primaries()).toEqual([
      { image_url: '/files/hero-2.png', image_type: 'hero' },
      { image_url: '/files/logo-1.png', image_type: 'logo' },
    ])
  })

  test('making an existing image primary by update clears the others too', async () => {
    await store.db.query(`update business_images set is_primary = true where image_url = '/files/hero-1.png'`)
    expect((await primaries()).find((p) => p.image_type === 'hero')).toEqual({
      image_url: '/files/hero-1.png',
      image_type: 'hero',
    })
  })

  test('adding the same image URL twice keeps one row', async () => {
    const first = await image('/files/gallery.png', 'gallery', false)
    const second = await image('/files/gallery.png', 'gallery', false)
    expect(first.created).toBe(true)
    expect(second).toEqual({ id: first.id, created: false })
  })
})

describe('constraints reject bad rows', () => {
  const rejects = (sql: string) => expect(store.db.query(sql)).rejects.toThrow()

  test('an empty slug', () => rejects(`insert into businesses (slug, name) values ('', 'No Slug')`))
  test('a slug that is not lower-case words and hyphens', () =>
    rejects(`insert into businesses (slug, name) values ('Big Rock!', 'Bad Slug')`))
  test('a duplicate slug', () => rejects(`insert into businesses (slug, name) values ('big-rock-coffee', 'Again')`))
  test('a blank name', () => rejects(`insert into businesses (slug, name) values ('blank', '   ')`))
  test('a rating of 7', () => rejects(`insert into businesses (slug, name, rating) values ('seven', 'Seven', 7)`))
  test('a website that is not http(s)', () =>
    rejects(`insert into businesses (slug, name, website) values ('ftp', 'Ftp', 'ftp://example.com')`))
  test('an unknown image_type', () =>
    rejects(
      `insert into business_images (business_id, image_url, image_type) values ('${businessId}', '/x.png', 'banner')`,
    ))
  test('an image of a business that does not exist', () =>
    rejects(`insert into business_images (business_id, image_url) values (gen_random_uuid(), '/x.png')`))
  test('a day of week outside 0–6', () =>
    rejects(`insert into business_hours (business_id, day_of_week, is_closed) values ('${businessId}', 7, true)`))
  test('an open day without times', () =>
    rejects(`insert into business_hours (business_id, day_of_week) values ('${businessId}', 1)`))
  test('an unknown category type', () =>
    rejects(`insert into location_categories (slug, name, category_type) values ('x', 'X', 'shops')`))
  test('an unknown job kind', () => rejects(`insert into jobs (kind) values ('mine-bitcoin')`))
})

describe('deleting a business', () => {
  test('removes its services, images and hours with it', async () => {
    await store.db.query(`insert into business_services (business_id, service_name) values ($1, 'Wi-Fi')`, [businessId])
    await store.db.query(
      `insert into business_hours (business_id, day_of_week, opens_at, closes_at) values ($1, 1, '06:00', '14:00')`,
      [businessId],
    )
    await store.db.query(`delete from businesses where id = $1`, [businessId])
    const counts = await store.db.query<{ n: number }>(
      `select (select count(*) from business_services) + (select count(*) from business_images)
              + (select count(*) from business_hours) as n`,
    )
    expect(Number(counts.rows[0]!.n)).toBe(0)
  })
})

describe('updated_at', () => {
  test('moves forward when a row changes', async () => {
    const { rows } = await store.db.query<{ before: Date; after: Date }>(`
      with b as (insert into businesses (slug, name, updated_at) values ('stamp', 'Stamp', now() - interval '1 day') returning updated_at)
      select (select updated_at from b) as before, now() as after`)
    await store.db.query(`update businesses set name = 'Stamped' where slug = 'stamp'`)
    const after = await store.db.query<{ updated_at: Date }>(`select updated_at from businesses where slug = 'stamp'`)
    expect(after.rows[0]!.updated_at.getTime()).toBeGreaterThan(rows[0]!.before.getTime())
  })
})
