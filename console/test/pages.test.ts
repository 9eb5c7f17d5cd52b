import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ConsoleServer } from '../src/server/server.ts'
import { addTestOperator, call, signIn, startTestConsole, tempDataDir } from './support/console.ts'

// Pages as content (issue 39) through the console API, over real HTTP on 127.0.0.1 with the real
// embedded Postgres in a temporary folder, seeded with Roland's pages.

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

async function page(path: string): Promise<any> {
  const { status, json } = await api('/api/pages')
  expect(status).toBe(200)
  const found = json.pages.find((p: { path: string }) => p.path === path)
  expect(found, path).toBeDefined()
  return found
}

describe('GET /api/pages', () => {
  test('lists every page by URL with the SQL column names, the home page first', async () => {
    const { status, json } = await api('/api/pages')
    expect(status).toBe(200)
    expect(json.pages[0].path).toBe('/')
    const emergency = json.pages.find((p: { path: string }) => p.path === '/community/emergency')
    expect(Object.keys(emergency).sort()).toEqual(
      ['body', 'description', 'id', 'intro', 'is_published', 'items', 'path', 'title', 'updated_at'].sort(),
    )
    expect(emergency.items[0]).toEqual({
      name: 'Emergency: fire, ambulance, sheriff',
      phone: '911',
      note: 'Any threat to life or property. Give the nearest highway and mile marker if you are outdoors.',
    })
  })

  test('is for operators: a visitor without a session gets 401', async () => {
    expect((await api('/api/pages', { auth: 'none' })).status).toBe(401)
  })
})

describe('PATCH /api/pages/{id}', () => {
  test('an editor saves the words and the list, audited under their name, and a rebuild waits', async () => {
    await addTestOperator(server, 'pages-editor@example.org', 'editor')
    const cookie = await signIn(server, 'pages-editor@example.org')
    const before = await page('/nearby')
    const waiting = server.services.scheduler.state.unpublishedEdits
    const items = [
      { name: 'Maumelle', note: 'Across the river.' },
      { name: 'Little Rock', phone: '(501) 555-0100' },
    ]
    const { status, json } = await api(`/api/pages/${before.id}`, {
      method: 'PATCH',
      auth: 'none',
      headers: { cookie, origin: server.url },
      body: {
        intro: 'Close by.',
        body: '## Further\n\nSee [the lake](https://example.org).',
        items,
        updated_at: before.updated_at,
      },
    })
    expect(status, JSON.stringify(json)).toBe(200)
    expect(json.page).toMatchObject({ path: '/nearby', title: before.title, intro: 'Close by.', items })
    const [entry] = (await api(`/api/audit?table=pages&row=${before.id}`)).json.entries
    expect(entry).toMatchObject({ actor: 'pages-editor@example.org', action: 'update' })
    expect(server.services.scheduler.state.unpublishedEdits).toBeGreaterThan(waiting)
  })

  test('stores Markdown with a <script> and a javascript: link as the editor typed it', async () => {
    const about = await page('/about')
    const body = 'Hi <script>alert(1)</script> [x](javascript:alert(1))'
    const { status, json } = await api(`/api/pages/${about.id}`, { method: 'PATCH', body: { body } })
    expect(status).toBe(200)
    expect(json.page.body).toBe(body)
  })

  test('refuses a body over 100 KB with 400 naming the body, and changes nothing', async () => {
    const history = await page('/about/history')
    const { status, json } = await api(`/api/pages/${history.id}`, {
      method: 'PATCH',
      body: { title: 'Changed', body: 'é'.repeat(51 * 1024) },
    })
    expect(status).toBe(400)
    expect(json.issues).toEqual([{ path: 'body', message: expect.stringMatching(/^Body is too long: at most 100 KB/) }])
    expect(await page('/about/history')).toEqual(history)
  })

  test('refuses an entry without a name, or with a javascript: website, with 400 naming it', async () => {
    const faith = await page('/community/faith')
    const nameless = await api(`/api/pages/${faith.id}`, { method: 'PATCH', body: { items: [{ phone: '911' }] } })
    expect(nameless.status).toBe(400)
    expect(nameless.json.issues[0]).toMatchObject({ path: 'items.0.name', message: 'Entry name is required' })
    const script = await api(`/api/pages/${faith.id}`, {
      method: 'PATCH',
      body: { items: [{ name: 'First Church', website: 'javascript:alert(1)' }] },
    })
    expect(script.status).toBe(400)
    expect(script.json.issues[0]).toMatchObject({ path: 'items.0.website' })
    expect((await page('/community/faith')).items).toEqual(faith.items)
  })

  test('refuses an empty title, or a field pages do not have, with 400', async () => {
    const faith = await page('/community/faith')
    const empty = await api(`/api/pages/${faith.id}`, { method: 'PATCH', body: { title: ' ' } })
    expect(empty.status).toBe(400)
    expect(empty.json.issues[0]).toMatchObject({ path: 'title', message: 'Title is required' })
    expect((await api(`/api/pages/${faith.id}`, { method: 'PATCH', body: { path: '/elsewhere' } })).status).toBe(400)
  })

  test.each(['/', '/businesses', '/events', '/contact'])(
    'refuses to unpublish %s with 400 naming is_published',
    async (path) => {
      const required = await page(path)
      const { status, json } = await api(`/api/pages/${required.id}`, {
        method: 'PATCH',
        body: { is_published: false },
      })
      expect(status).toBe(400)
      expect(json.issues[0]).toMatchObject({ path: 'is_published', message: expect.stringMatching(/stay published/) })
      expect((await page(path)).is_published).toBe(true)
    },
  )

  test('unpublishes and publishes again any other page', async () => {
    const garden = await page('/community/garden')
    const off = await api(`/api/pages/${garden.id}`, { method: 'PATCH', body: { is_published: false } })
    expect(off.status).toBe(200)
    expect(off.json.page.is_published).toBe(false)
    expect((await page('/community/garden')).is_published).toBe(false)
    const on = await api(`/api/pages/${garden.id}`, { method: 'PATCH', body: { is_published: true } })
    expect(on.json.page.is_published).toBe(true)
  })

  test('refuses the second of two saves from the same stale copy with 409, keeping the first', async () => {
    const centers = await page('/community/centers')
    const first = await api(`/api/pages/${centers.id}`, {
      method: 'PATCH',
      body: { intro: 'First.', updated_at: centers.updated_at },
    })
    const second = await api(`/api/pages/${centers.id}`, {
      method: 'PATCH',
      body: { intro: 'Second.', updated_at: centers.updated_at },
    })
    expect(first.status).toBe(200)
    expect(second.status).toBe(409)
    expect(second.json.current.intro).toBe('First.')
    expect((await page('/community/centers')).intro).toBe('First.')
  })

  test('answers 404 for an unknown id and 400 for an id that is not one', async () => {
    const unknown = await api('/api/pages/00000000-0000-4000-8000-000000000000', {
      method: 'PATCH',
      body: { intro: 'x' },
    })
    expect(unknown.status).toBe(404)
    expect((await api('/api/pages/nope', { method: 'PATCH', body: { intro: 'x' } })).status).toBe(400)
  })
})

describe('undo', () => {
  test("puts a page's list back as it was, as a new change", async () => {
    const emergency = await page('/community/emergency')
    const changed = [{ name: 'Fire', phone: '(501) 555-0199' }, ...emergency.items.slice(1)]
    expect((await api(`/api/pages/${emergency.id}`, { method: 'PATCH', body: { items: changed } })).status).toBe(200)
    expect((await page('/community/emergency')).items).toEqual(changed)
    const [entry] = (await api(`/api/audit?table=pages&row=${emergency.id}`)).json.entries
    expect((await api(`/api/audit/${entry.id}/undo`, { method: 'POST' })).status).toBe(200)
    expect((await page('/community/emergency')).items).toEqual(emergency.items)
    expect((await api(`/api/audit/${entry.id}/undo`, { method: 'POST' })).status).toBe(409)
  })
})
