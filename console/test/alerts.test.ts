import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ConsoleServer } from '../src/server/server.ts'
import { addTestOperator, call, signIn, startTestConsole, tempDataDir } from './support/console.ts'

// Town alerts (issue 48) through the console API, over real HTTP on 127.0.0.1 with the real
// embedded Postgres. The rebuild goes to a deploy hook: a stand-in on 127.0.0.1 counts its calls,
// so a test sees the rebuild an alert queued at once (the quiet window is set to an hour).

let data: Awaited<ReturnType<typeof tempDataDir>>
let server: ConsoleServer
let hook: Server
let hookCalls = 0

beforeAll(async () => {
  hook = createServer((req, res) => {
    hookCalls++
    req.resume()
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
  })
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve))
  data = await tempDataDir()
  server = await startTestConsole({
    dataDir: data.dir,
    env: {
      REBUILD_HOOK_URL: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/build`,
      ROLAND_REBUILD_DEBOUNCE_MS: '3600000',
    },
  })
})

afterAll(async () => {
  await server?.close()
  await data?.remove()
  await new Promise((resolve) => hook?.close(resolve))
})

const api = (pathname: string, options: Parameters<typeof call>[2] = {}) => call(server, pathname, options)

/** Waits until the deploy hook has been called more than `before` times (the rebuild the action queued). */
async function hookCalledAfter(before: number): Promise<void> {
  while (hookCalls <= before) await new Promise((resolve) => setTimeout(resolve, 20))
  await server.services.scheduler.idle()
}

const boilWater = {
  title: 'Boil water before drinking',
  body: 'A main broke on **Highway 300**.',
  level: 'emergency',
  kind: 'water',
  area: 'North of Highway 300',
}

describe('POST /api/alerts', () => {
  test('publishes at once: 201 with the alert, its first message (Alert), and a rebuild ahead of the quiet window', async () => {
    const before = hookCalls
    const { status, json } = await api('/api/alerts', { method: 'POST', body: { ...boilWater, publish: true } })
    expect(status, JSON.stringify(json)).toBe(201)
    expect(json.alert).toMatchObject({ ...boilWater, status: 'published', ends_at: null, ended_at: null })
    expect(json.alert.published_at).toEqual(expect.any(String))
    expect(json.alert.messages).toEqual([expect.objectContaining({ sequence: 1, msg_type: 'Alert', all_clear: false })])
    await hookCalledAfter(before)
  })

  test('saves a draft without publishing it: no message, no rebuild, the edit waits', async () => {
    const waiting = server.services.scheduler.state.unpublishedEdits
    const { status, json } = await api('/api/alerts', {
      method: 'POST',
      body: { title: 'Road work next week', level: 'notice', kind: 'road', publish: false },
    })
    expect(status).toBe(201)
    expect(json.alert).toMatchObject({ status: 'draft', published_at: null, messages: [] })
    expect(server.services.scheduler.state.unpublishedEdits).toBe(waiting + 1)
  })

  test('refuses bad fields with 400 naming the field, and saves nothing', async () => {
    const count = (await api('/api/alerts')).json.alerts.length
    const long = await api('/api/alerts', { method: 'POST', body: { title: 'x'.repeat(121), level: 'emergency' } })
    expect(long.status).toBe(400)
    expect(long.json.issues[0]).toMatchObject({ path: 'title', message: 'Title is too long: at most 120 characters' })
    const level = await api('/api/alerts', { method: 'POST', body: { title: 'x', level: 'panic' } })
    expect(level.status).toBe(400)
    expect(level.json.error).toMatch(/Level must be one of emergency, advisory, notice/)
    const body = await api('/api/alerts', {
      method: 'POST',
      body: { title: 'x', level: 'notice', body: 'é'.repeat(5121) },
    })
    expect(body.status).toBe(400)
    expect(body.json.error).toMatch(/at most 10 KB/)
    expect((await api('/api/alerts')).json.alerts).toHaveLength(count)
  })
})

describe('PATCH, publish and end', () => {
  test('an update of a published alert is an Update message and a rebuild; a stale one is 409', async () => {
    const created = (await api('/api/alerts', { method: 'POST', body: { ...boilWater, publish: true } })).json.alert
    await server.services.scheduler.idle()
    const before = hookCalls
    const ends = new Date(Date.now() + 86_400_000).toISOString()
    const updated = await api(`/api/alerts/${created.id}`, {
      method: 'PATCH',
      body: { body: 'Boil for one minute.', ends_at: ends, updated_at: created.updated_at },
    })
    expect(updated.status, JSON.stringify(updated.json)).toBe(200)
    expect(updated.json.alert.messages.map((m: { msg_type: string }) => m.msg_type)).toEqual(['Alert', 'Update'])
    expect(Date.parse(updated.json.alert.ends_at)).toBe(Date.parse(ends))
    await hookCalledAfter(before)
    // The timer now waits for this alert's end.
    expect(server.services.alertTimer.nextEnd).toBe(Date.parse(ends))

    const stale = await api(`/api/alerts/${created.id}`, {
      method: 'PATCH',
      body: { title: 'Lost edit', updated_at: created.updated_at },
    })
    expect(stale.status).toBe(409)
    expect(stale.json.current.title).toBe(boilWater.title)
  })

  test('publishing a draft makes its first message; ending gives the all clear with its note', async () => {
    const draft = (await api('/api/alerts', { method: 'POST', body: { title: 'Shelter open', level: 'advisory' } }))
      .json.alert
    let before = hookCalls
    const published = await api(`/api/alerts/${draft.id}/publish`, { method: 'POST', body: {} })
    expect(published.status, JSON.stringify(published.json)).toBe(200)
    expect(published.json.alert).toMatchObject({ status: 'published', messages: [{ msg_type: 'Alert' }] })
    await hookCalledAfter(before)

    before = hookCalls
    const ended = await api(`/api/alerts/${draft.id}/end`, {
      method: 'POST',
      body: { message: 'The shelter has closed.', updated_at: published.json.alert.updated_at },
    })
    expect(ended.status, JSON.stringify(ended.json)).toBe(200)
    expect(ended.json.alert).toMatchObject({ status: 'ended', all_clear: 'The shelter has closed.' })
    expect(ended.json.alert.ended_at).toEqual(expect.any(String))
    expect(ended.json.alert.messages.at(-1)).toMatchObject({
      msg_type: 'Update',
      all_clear: true,
      note: 'The shelter has closed.',
    })
    await hookCalledAfter(before)

    // An ended alert is not published again, nor ended twice with another note.
    const again = await api(`/api/alerts/${draft.id}/publish`, { method: 'POST', body: {} })
    expect(again.status).toBe(400)
    expect(again.json.error).toMatch(/has ended/)
  })

  test('ending with a stale version is 409; a draft cannot be ended; an unknown id is 404', async () => {
    const created = (await api('/api/alerts', { method: 'POST', body: { ...boilWater, publish: true } })).json.alert
    await api(`/api/alerts/${created.id}`, { method: 'PATCH', body: { title: 'Boil water now' } })
    const stale = await api(`/api/alerts/${created.id}/end`, {
      method: 'POST',
      body: { updated_at: created.updated_at },
    })
    expect(stale.status).toBe(409)
    const draft = (await api('/api/alerts', { method: 'POST', body: { title: 'Later', level: 'notice' } })).json.alert
    expect((await api(`/api/alerts/${draft.id}/end`, { method: 'POST', body: {} })).status).toBe(400)
    expect(
      (await api('/api/alerts/00000000-0000-4000-8000-000000000000/end', { method: 'POST', body: {} })).status,
    ).toBe(404)
    expect((await api('/api/alerts/not-an-id', { method: 'PATCH', body: {} })).status).toBe(400)
  })

  test('an editor publishes, audited under their name, and the change is undone from the history', async () => {
    await addTestOperator(server, 'alerts-editor@example.org', 'editor')
    const cookie = await signIn(server, 'alerts-editor@example.org')
    const asEditor = { auth: 'none' as const, headers: { cookie, origin: server.url } }
    const created = await api('/api/alerts', {
      method: 'POST',
      ...asEditor,
      body: { title: 'Power out on Pinnacle Road', level: 'advisory', kind: 'power', publish: true },
    })
    expect(created.status).toBe(201)
    const id = created.json.alert.id
    const changed = await api(`/api/alerts/${id}`, { method: 'PATCH', ...asEditor, body: { title: 'Power back soon' } })
    expect(changed.status).toBe(200)
    const [entry] = (await api(`/api/audit?table=alerts&row=${id}`)).json.entries
    expect(entry).toMatchObject({ actor: 'alerts-editor@example.org', action: 'update' })
    await server.services.scheduler.idle()
    const before = hookCalls
    const undone = await api(`/api/audit/${entry.id}/undo`, { method: 'POST', ...asEditor, body: {} })
    expect(undone.status, JSON.stringify(undone.json)).toBe(200)
    const alert = (await api('/api/alerts')).json.alerts.find((a: { id: string }) => a.id === id)
    expect(alert.title).toBe('Power out on Pinnacle Road')
    // The undo is what the town sees too: rebuilt at once.
    await hookCalledAfter(before)
  })
})

describe('GET /api/alerts', () => {
  test('lists every alert, newest first, with its messages; for operators only', async () => {
    const { status, json } = await api('/api/alerts')
    expect(status).toBe(200)
    const created = json.alerts.map((a: { created_at: string }) => Date.parse(a.created_at))
    expect(created).toEqual([...created].sort((a, b) => b - a))
    expect(json.alerts.every((a: { messages: unknown }) => Array.isArray(a.messages))).toBe(true)
    expect((await api('/api/alerts', { auth: 'none' })).status).toBe(401)
  })
})
