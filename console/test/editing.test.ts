import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ConsoleServer } from '../src/server/server.ts'
import { call, startTestConsole, tempDataDir, testSecret } from './support/console.ts'

// Editing content through the console API (issue 18), over real HTTP on 127.0.0.1 with the real
// embedded Postgres (loaded with the sample Roland.txt) in a temporary folder.

const photo = new URL(
  '../../scripts/test/fixtures/sites/wordpress-bakery/wp-content/uploads/2024/03/cinnamon-rolls.jpg',
  import.meta.url,
)

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

async function firstBusiness(): Promise<any> {
  const { status, json } = await api('/api/businesses')
  expect(status).toBe(200)
  return json.businesses[0]
}

async function upload(businessId: string, bytes: Uint8Array, name: string, altText = 'Fresh cinnamon rolls') {
  const form = new FormData()
  form.set('file', new Blob([Buffer.from(bytes)]), name)
  form.set('alt_text', altText)
  const response = await fetch(`${server.url}/api/businesses/${businessId}/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${testSecret}` },
    body: form,
  })
  return { status: response.status, json: await response.json() }
}

describe('GET /api/businesses', () => {
  test('lists every business with the SQL column names, its services and photos', async () => {
    const business = await firstBusiness()
    expect(business).toMatchObject({
      id: expect.any(String),
      slug: expect.any(String),
      name: expect.any(String),
      is_featured: false,
      services: expect.any(Array),
      images: expect.any(Array),
      updated_at: expect.any(String),
    })
  })
})

describe('PATCH /api/businesses/{id}', () => {
  test('saves the fields given, and the audit trail names the automation as the actor', async () => {
    const business = await firstBusiness()
    const { status, json } = await api(`/api/businesses/${business.id}`, {
      method: 'PATCH',
      body: { phone: '(501) 555-0199', is_featured: true, updated_at: business.updated_at },
    })
    expect(status).toBe(200)
    expect(json.business).toMatchObject({ phone: '(501) 555-0199', is_featured: true, name: business.name })
    const audit = await api(`/api/audit?table=businesses&row=${business.id}`)
    expect(audit.status).toBe(200)
    expect(audit.json.entries[0]).toMatchObject({ actor: 'automation', action: 'update', row_id: business.id })
    expect(audit.json.entries[0].after.phone).toBe('(501) 555-0199')
  })

  test('refuses a javascript: website with 400 naming the field, and saves nothing of the request', async () => {
    const business = await firstBusiness()
    const { status, json } = await api(`/api/businesses/${business.id}`, {
      method: 'PATCH',
      body: { phone: '(501) 555-0101', website: 'javascript:alert(1)' },
    })
    expect(status).toBe(400)
    expect(json.issues).toEqual([{ path: 'website', message: expect.stringMatching(/^Website must be an http/) }])
    expect((await firstBusiness()).phone).toBe(business.phone)
  })

  test('refuses an empty name with 400', async () => {
    const business = await firstBusiness()
    const { status, json } = await api(`/api/businesses/${business.id}`, { method: 'PATCH', body: { name: '  ' } })
    expect(status).toBe(400)
    expect(json.issues[0]).toMatchObject({ path: 'name', message: 'Name is required' })
  })

  test('refuses a column that is not editable with 400', async () => {
    const business = await firstBusiness()
    const { status } = await api(`/api/businesses/${business.id}`, { method: 'PATCH', body: { slug: 'elsewhere' } })
    expect(status).toBe(400)
  })

  test('answers 404 for an unknown id', async () => {
    const { status } = await api('/api/businesses/00000000-0000-4000-8000-000000000000', {
      method: 'PATCH',
      body: { phone: '(501) 555-0101' },
    })
    expect(status).toBe(404)
  })

  test('refuses the second of two saves from the same stale copy with 409, keeping the first', async () => {
    const business = await firstBusiness()
    const first = await api(`/api/businesses/${business.id}`, {
      method: 'PATCH',
      body: { address: '1 First St', updated_at: business.updated_at },
    })
    const second = await api(`/api/businesses/${business.id}`, {
      method: 'PATCH',
      body: { address: '2 Second St', updated_at: business.updated_at },
    })
    expect(first.status).toBe(200)
    expect(second.status).toBe(409)
    expect(second.json.error).toMatch(/changed by someone else/)
    expect(second.json.current.address).toBe('1 First St')
    expect((await firstBusiness()).address).toBe('1 First St')
  })

  test('replaces the services and parses the hours into opening-hours rows', async () => {
    const business = await firstBusiness()
    const { status, json } = await api(`/api/businesses/${business.id}`, {
      method: 'PATCH',
      body: { services: [{ service_name: 'Boarding', description: 'Overnight stays' }], hours: 'Mon-Fri 8am-5pm' },
    })
    expect(status).toBe(200)
    expect(json.business.services).toEqual([{ service_name: 'Boarding', description: 'Overnight stays' }])
    const hours = await api(`/api/audit?table=business_hours`)
    expect(
      hours.json.entries.filter((e: any) => e.action === 'insert' && e.after.business_id === business.id),
    ).toHaveLength(5)
  })
})

describe('new and deleted businesses', () => {
  test('creates a business with a slug from its name, and deletes it', async () => {
    const created = await api('/api/businesses', {
      method: 'POST',
      body: { name: 'Roland Feed & Seed', category: 'Shopping & Convenience' },
    })
    expect(created.status).toBe(201)
    expect(created.json.business).toMatchObject({ slug: 'roland-feed-and-seed', metadata: { source: 'console' } })
    const again = await api('/api/businesses', { method: 'POST', body: { name: 'Roland Feed and Seed' } })
    expect(again.json.business.slug).toBe('roland-feed-and-seed-2')
    const deleted = await api(`/api/businesses/${created.json.business.id}`, { method: 'DELETE' })
    expect(deleted.status).toBe(200)
    expect((await api(`/api/businesses/${created.json.business.id}`)).status).toBe(404)
  })
})

describe('photos', () => {
  test('uploads a photo as multipart with its alt text (201)', async () => {
    const business = await firstBusiness()
    const { status, json } = await upload(business.id, new Uint8Array(await readFile(photo)), 'rolls.jpg')
    expect(status).toBe(201)
    expect(json.image).toMatchObject({
      business_id: business.id,
      alt_text: 'Fresh cinnamon rolls',
      metadata: { source: 'upload' },
    })
    const file = await fetch(`${server.url}${json.image.image_url}`, {
      headers: { authorization: `Bearer ${testSecret}` },
    })
    expect(file.status).toBe(200)
  })

  test('refuses a file that is not an image with 400, storing nothing', async () => {
    const business = await firstBusiness()
    const before = business.images.length
    const { status, json } = await upload(
      business.id,
      new TextEncoder().encode('<script>alert(1)</script>'),
      'evil.jpg',
    )
    expect(status).toBe(400)
    expect(json.issues[0].path).toBe('file')
    expect((await firstBusiness()).images).toHaveLength(before)
  })

  test('sets the primary photo, its alt text, reorders and deletes photos', async () => {
    const business = await firstBusiness()
    const png = new Uint8Array(
      await readFile(new URL('../../scripts/test/fixtures/sites/favicon-only/favicon-32x32.png', import.meta.url)),
    )
    const second = (await upload(business.id, png, 'icon.png', 'The sign')).json.image
    const [first] = (await firstBusiness()).images
    const primary = await api(`/api/images/${second.id}`, {
      method: 'PATCH',
      body: { is_primary: true, alt_text: 'The new sign' },
    })
    expect(primary.status).toBe(200)
    expect(primary.json.image).toMatchObject({ is_primary: true, alt_text: 'The new sign' })
    const order = await api(`/api/businesses/${business.id}/images/order`, {
      method: 'PUT',
      body: { image_ids: [second.id, first.id] },
    })
    expect(order.status).toBe(200)
    expect(order.json.business.images.map((i: any) => i.id)).toEqual([second.id, first.id])
    expect((await api(`/api/images/${second.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await firstBusiness()).images.map((i: any) => i.id)).toEqual([first.id])
  })
})

describe('events', () => {
  test('creates an event from ISO 8601 times (201), edits, cancels and deletes it', async () => {
    const created = await api('/api/events', {
      method: 'POST',
      body: {
        title: 'Fourth of July Fireworks',
        description: 'Fireworks over Lake Maumelle.',
        starts_at: '2027-07-04T21:00:00-05:00',
        ends_at: '2027-07-04T22:00:00-05:00',
        location: 'Lake Maumelle',
        event_type: 'Community',
      },
    })
    expect(created.status).toBe(201)
    const event = created.json.event
    expect(event).toMatchObject({ slug: 'fourth-of-july-fireworks-2027-07-04', title: 'Fourth of July Fireworks' })
    expect(new Date(event.starts_at).toISOString()).toBe('2027-07-05T02:00:00.000Z')
    const listed = await api('/api/events')
    expect(listed.json.events.map((e: any) => e.id)).toContain(event.id)
    const moved = await api(`/api/events/${event.id}`, {
      method: 'PATCH',
      body: { location: 'Vista Point', updated_at: event.updated_at },
    })
    expect(moved.json.event.location).toBe('Vista Point')
    const cancelled = await api(`/api/events/${event.id}`, { method: 'PATCH', body: { is_cancelled: true } })
    expect(cancelled.json.event.is_cancelled).toBe(true)
    expect((await api(`/api/events/${event.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await api(`/api/events/${event.id}`, { method: 'DELETE' })).status).toBe(404)
  })

  test('refuses an unparseable date with 400 naming the field', async () => {
    const { status, json } = await api('/api/events', {
      method: 'POST',
      body: { title: 'Potluck', starts_at: 'next Tuesday', location: 'Here', event_type: 'Social' },
    })
    expect(status).toBe(400)
    expect(json.issues[0].path).toBe('starts_at')
  })

  const council = {
    title: 'Council meeting',
    starts_at: '2027-01-12T19:00:00-06:00',
    location: 'Roland Community Center',
    event_type: 'Planning',
  }

  test('creates a series with its rule, cancels one date and moves another (an exception of the series)', async () => {
    const created = await api('/api/events', { method: 'POST', body: { ...council, rrule: 'FREQ=MONTHLY;BYDAY=2TU' } })
    expect(created.status).toBe(201)
    const series = created.json.event
    expect(series).toMatchObject({ rrule: 'FREQ=MONTHLY;BYDAY=2TU', exdates: [] })
    const cancelled = await api(`/api/events/${series.id}`, {
      method: 'PATCH',
      body: { exdates: ['2027-02-09T19:00:00-06:00'], updated_at: series.updated_at },
    })
    expect(cancelled.status).toBe(200)
    expect(cancelled.json.event.exdates.map((d: string) => new Date(d).toISOString())).toEqual([
      '2027-02-10T01:00:00.000Z',
    ])
    const moved = await api('/api/events', {
      method: 'POST',
      body: {
        ...council,
        starts_at: '2027-03-10T19:00:00-05:00',
        series_id: series.id,
        recurrence_id: '2027-03-09T19:00:00-05:00',
      },
    })
    expect(moved.status).toBe(201)
    expect(moved.json.event).toMatchObject({ series_id: series.id, rrule: null })
    expect(new Date(moved.json.event.recurrence_id).toISOString()).toBe('2027-03-10T00:00:00.000Z')
    // Deleting the series takes its moved dates with it.
    expect((await api(`/api/events/${series.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await api(`/api/events/${moved.json.event.id}`, { method: 'DELETE' })).status).toBe(404)
  })

  test('refuses a rule that does not parse, or one with no end that repeats daily, with 400 naming rrule', async () => {
    for (const rrule of ['every second Tuesday', 'FREQ=WEEKLY;BYDAY=XX', 'FREQ=DAILY']) {
      const { status, json } = await api('/api/events', { method: 'POST', body: { ...council, rrule } })
      expect(status, rrule).toBe(400)
      expect(json.issues[0].path, rrule).toBe('rrule')
    }
    const listed = await api('/api/events')
    expect(listed.json.events.filter((e: any) => e.title === council.title)).toEqual([])
    const { json } = await api('/api/events', { method: 'POST', body: { ...council, rrule: 'FREQ=DAILY' } })
    expect(json.issues[0].message).toMatch(/needs an end: add UNTIL/)
  })

  test('refuses a cancelled date that is no date with 400 naming exdates', async () => {
    const { status, json } = await api('/api/events', {
      method: 'POST',
      body: { ...council, rrule: 'FREQ=WEEKLY', exdates: ['next week'] },
    })
    expect(status).toBe(400)
    expect(json.issues[0].path).toMatch(/^exdates/)
  })
})

describe('attractions', () => {
  test('edits an attraction, refusing a non-http website', async () => {
    const { json } = await api('/api/attractions')
    const lake = json.attractions.find((a: any) => a.id === 'lake-maumelle')
    const saved = await api('/api/attractions/lake-maumelle', {
      method: 'PATCH',
      body: { badge: 'Sailing', updated_at: lake.updated_at },
    })
    expect(saved.status).toBe(200)
    expect(saved.json.attraction.badge).toBe('Sailing')
    const bad = await api('/api/attractions/lake-maumelle', { method: 'PATCH', body: { website: 'data:text/html,hi' } })
    expect(bad.status).toBe(400)
  })
})

describe('bad characters (issue 43)', () => {
  /** Sends a request that carries a bad character in one field; says the answer's status and first issue. */
  async function refusal(pathname: string, method: string, body: unknown) {
    const { status, json } = await api(pathname, { method, body })
    return { status, issue: json?.issues?.[0] }
  }

  test('every content route refuses a control character with 400 naming the field, and saves nothing', async () => {
    const business = await firstBusiness()
    const { json: events } = await api('/api/events')
    const event = events.events[0]
    const control = (label: string) =>
      expect.stringMatching(new RegExp(`^${label} contains an invisible control character`))
    const cases: Array<[string, string, unknown, string, string]> = [
      ['/api/businesses', 'POST', { name: 'Null\u0000 Cafe' }, 'name', 'Name'],
      [`/api/businesses/${business.id}`, 'PATCH', { address: '12 Main\u0007 St' }, 'address', 'Address'],
      [`/api/businesses/${business.id}`, 'PATCH', { hours: 'Mon\u000B 9-5' }, 'hours', 'Hours'],
      [
        `/api/businesses/${business.id}`,
        'PATCH',
        { services: [{ service_name: 'Tea', description: '\u001B[31mred' }] },
        'services.0.description',
        'Service description',
      ],
      [
        '/api/events',
        'POST',
        { title: 'Fish fry', starts_at: '2027-07-04T19:00:00-05:00', location: 'Park\u0000', event_type: 'Social' },
        'location',
        'Location',
      ],
      [`/api/events/${event.id}`, 'PATCH', { description: 'Bring\u0085 a chair' }, 'description', 'Description'],
      [
        '/api/attractions',
        'POST',
        { name: 'Cove', category: 'Natural Attractions', description: 'Quiet\u007F' },
        'description',
        'Description',
      ],
      ['/api/attractions/lake-maumelle', 'PATCH', { distance: '5\u0001 miles' }, 'distance', 'Distance'],
    ]
    const lastChange = async () => (await api('/api/audit?limit=1')).json.entries[0]?.id
    const before = await lastChange()
    for (const [pathname, method, body, path, label] of cases) {
      expect(await refusal(pathname, method, body), `${method} ${pathname}`).toEqual({
        status: 400,
        issue: { path, message: control(label) },
      })
    }
    expect(await lastChange()).toBe(before)
    expect(await firstBusiness()).toEqual(business)
  })

  test('a photo’s alt text is refused the same way, on upload and on edit', async () => {
    const business = await firstBusiness()
    const png = new Uint8Array(
      await readFile(new URL('../../scripts/test/fixtures/sites/favicon-only/favicon-32x32.png', import.meta.url)),
    )
    const uploaded = await upload(business.id, png, 'sign.png', 'The\u0000 sign')
    expect(uploaded.status).toBe(400)
    expect(uploaded.json.issues).toEqual([{ path: 'alt_text', message: expect.stringMatching(/^Alt text contains/) }])
    const image = (await upload(business.id, png, 'sign.png', 'The sign')).json.image
    expect(await refusal(`/api/images/${image.id}`, 'PATCH', { alt_text: 'The\u0002 sign' })).toEqual({
      status: 400,
      issue: { path: 'alt_text', message: expect.stringMatching(/^Alt text contains/) },
    })
  })

  test('names and titles refuse bidirectional overrides and isolates; descriptions keep them', async () => {
    const business = await firstBusiness()
    for (const [pathname, body, path] of [
      [`/api/businesses/${business.id}`, { name: '\u202EknaB' }, 'name'],
      [`/api/businesses/${business.id}`, { services: [{ service_name: 'Free\u2066' }] }, 'services.0.service_name'],
      ['/api/attractions/lake-maumelle', { name: 'Lake\u2069' }, 'name'],
    ] as const) {
      expect(await refusal(pathname, 'PATCH', body)).toEqual({
        status: 400,
        issue: { path, message: expect.stringMatching(/contains a bidirectional control character \(U\+20/) },
      })
    }
    const saved = await api(`/api/businesses/${business.id}`, {
      method: 'PATCH',
      body: { full_description: 'Menu in \u2067עברית\u2069 too.\r\nOpen late.' },
    })
    expect(saved.status).toBe(200)
    expect(saved.json.business.full_description).toBe('Menu in \u2067עברית\u2069 too.\nOpen late.')
  })
})

describe('undo', () => {
  test('undoes a save by writing a new change; undoing it again is refused with 409', async () => {
    const business = await firstBusiness()
    await api(`/api/businesses/${business.id}`, { method: 'PATCH', body: { name: 'A Wrong Name' } })
    const [entry] = (await api(`/api/audit?table=businesses&row=${business.id}`)).json.entries
    const undone = await api(`/api/audit/${entry.id}/undo`, { method: 'POST' })
    expect(undone.status).toBe(200)
    expect((await firstBusiness()).name).toBe(business.name)
    const [latest] = (await api(`/api/audit?table=businesses&row=${business.id}`)).json.entries
    expect(latest.id).toBeGreaterThan(entry.id)
    expect((await api(`/api/audit/${entry.id}/undo`, { method: 'POST' })).status).toBe(409)
  })

  test('the console offers a rebuild after edits', () => {
    expect(server.services.scheduler.state.unpublishedEdits).toBeGreaterThan(0)
  })
})
