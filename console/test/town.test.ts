import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ConsoleServer } from '../src/server/server.ts'
import { addTestOperator, call, signIn, startTestConsole, tempDataDir } from './support/console.ts'

// The town settings and the category descriptions through the console API (issue 39), over real
// HTTP on 127.0.0.1 with the real embedded Postgres (seeded with Roland) in a temporary folder.

let data: Awaited<ReturnType<typeof tempDataDir>>
let server: ConsoleServer

beforeAll(async () => {
  data = await tempDataDir()
  server = await startTestConsole({ dataDir: data.dir })
})

afterAll(async () => {
  await server?.close()
  await data?.remove()
})

const api = (pathname: string, options: Parameters<typeof call>[2] = {}) => call(server, pathname, options)

describe('GET /api/town', () => {
  test('answers the settings by their field names', async () => {
    const { status, json } = await api('/api/town')
    expect(status).toBe(200)
    expect(json.town).toEqual({
      name: 'Roland',
      state: 'Arkansas',
      state_code: 'AR',
      zip: '72135',
      county: 'Pulaski County',
      tagline: 'Arkansas Community',
      time_zone: 'America/Chicago',
      country: 'US',
      latitude: 34.8962,
      longitude: -92.4957,
      coordinator_name: 'Dana Whitfield',
      coordinator_email: 'events@roland-ar.example',
      contact_email: 'events@roland-ar.example',
      contact_phone: null,
      updated_at: expect.any(String),
    })
  })
})

describe('PATCH /api/town', () => {
  test.each([
    [{ time_zone: 'Mars/Olympus_Mons' }, 'time_zone', /Time zone must be an IANA time zone/],
    [{ zip: '7213' }, 'zip', /ZIP must be a US ZIP code/],
    [{ name: '  ' }, 'name', /Name is required/],
    [{ coordinator_email: 'not an address' }, 'coordinator_email', /Coordinator email must be an address/],
    [{ contact_phone: '555-12' }, 'contact_phone', /Contact phone must be a phone number of US/],
    [{ latitude: 91 }, 'latitude', /Latitude must be from -90 to 90/],
  ])('refuses %j with 400 naming the field, and changes nothing', async (body, field, message) => {
    const before = (await api('/api/town')).json.town
    const answer = await api('/api/town', { method: 'PATCH', body })
    expect(answer.status).toBe(400)
    expect(answer.json.issues).toContainEqual({ path: field, message: expect.stringMatching(message) })
    expect((await api('/api/town')).json.town).toEqual(before)
  })

  test('saves any subset of the fields, audited, and undo puts them back', async () => {
    const before = (await api('/api/town')).json.town
    const saved = await api('/api/town', {
      method: 'PATCH',
      body: { tagline: 'Lakeside Community', time_zone: 'America/Denver', updated_at: before.updated_at },
    })
    expect(saved.status).toBe(200)
    expect(saved.json.town).toMatchObject({
      name: 'Roland',
      tagline: 'Lakeside Community',
      time_zone: 'America/Denver',
    })

    const { json } = await api('/api/audit?table=town_settings&row=1&limit=1')
    expect(json.entries[0]).toMatchObject({ action: 'update', table: 'town_settings' })
    expect(json.entries[0].after).toMatchObject({ tagline: 'Lakeside Community' })
    const undone = await api(`/api/audit/${json.entries[0].id}/undo`, { method: 'POST' })
    expect(undone.status).toBe(200)
    expect((await api('/api/town')).json.town).toMatchObject({
      tagline: before.tagline,
      time_zone: before.time_zone,
    })
  })

  test('refuses a save from a stale copy with 409', async () => {
    const before = (await api('/api/town')).json.town
    expect(
      (await api('/api/town', { method: 'PATCH', body: { tagline: 'First', updated_at: before.updated_at } })).status,
    ).toBe(200)
    const stale = await api('/api/town', {
      method: 'PATCH',
      body: { tagline: 'Second', updated_at: before.updated_at },
    })
    expect(stale.status).toBe(409)
    expect((await api('/api/town')).json.town.tagline).toBe('First')
  })

  test('is for admins: an editor reads the settings but gets 403 for a change or an undo of one', async () => {
    await addTestOperator(server, 'town-editor@example.org', 'editor')
    const cookie = await signIn(server, 'town-editor@example.org')
    const asEditor = { auth: 'none' as const, headers: { cookie } }
    expect((await call(server, '/api/town', asEditor)).status).toBe(200)
    const refused = await call(server, '/api/town', { ...asEditor, method: 'PATCH', body: { tagline: 'Mine' } })
    expect(refused.status).toBe(403)
    const { json } = await api('/api/audit?table=town_settings&row=1&limit=1')
    const undo = await call(server, `/api/audit/${json.entries[0].id}/undo`, { ...asEditor, method: 'POST' })
    expect(undo.status).toBe(403)
  })
})

describe('the category descriptions', () => {
  test('keep the seed’s words, are edited by any operator with 409 on a stale copy, and undone', async () => {
    const { json } = await api('/api/categories')
    const dining = json.categories.find((c: { slug: string }) => c.slug === 'dining-refreshments')
    expect(dining.description).toMatch(/^Coffee, home cooking, barbecue and sweets/)
    const saved = await api(`/api/categories/${dining.id}`, {
      method: 'PATCH',
      body: { description: 'Where the valley eats.', updated_at: dining.updated_at },
    })
    expect(saved.status).toBe(200)
    expect(saved.json.category.description).toBe('Where the valley eats.')
    const stale = await api(`/api/categories/${dining.id}`, {
      method: 'PATCH',
      body: { description: 'Too late', updated_at: dining.updated_at },
    })
    expect(stale.status).toBe(409)
    const entries = (await api(`/api/audit?table=location_categories&row=${dining.id}&limit=1`)).json.entries
    expect((await api(`/api/audit/${entries[0].id}/undo`, { method: 'POST' })).status).toBe(200)
    const after = (await api('/api/categories')).json.categories.find((c: { id: string }) => c.id === dining.id)
    expect(after.description).toBe(dining.description)
  })
})

describe("a business's phone", () => {
  test("follows the town's country: a British number once the town is in GB, a US one before and after", async () => {
    const created = await api('/api/businesses', {
      method: 'POST',
      body: { name: 'Corner Shop', category: 'Business' },
    })
    expect(created.status, created.text).toBe(201)
    const id = created.json.business.id as string
    const phone = (value: string) => api(`/api/businesses/${id}`, { method: 'PATCH', body: { phone: value } })

    const british = await phone('020 7946 0018')
    expect(british.status).toBe(400)
    expect(british.json.issues).toContainEqual({ path: 'phone', message: expect.stringMatching(/US phone number/) })

    expect((await api('/api/town', { method: 'PATCH', body: { country: 'GB' } })).status).toBe(200)
    try {
      expect((await phone('020 7946 0018')).status).toBe(200)
      const american = await phone('(501) 555-0123')
      expect(american.status).toBe(400)
      expect(american.json.issues).toContainEqual({ path: 'phone', message: expect.stringMatching(/country \(GB\)/) })
      expect((await api(`/api/businesses/${id}`)).json.business.phone).toBe('020 7946 0018')
    } finally {
      expect((await api('/api/town', { method: 'PATCH', body: { country: 'US' } })).status).toBe(200)
    }
    expect((await phone('(501) 555-0123')).status).toBe(200)
  })
})
