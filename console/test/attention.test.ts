import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { publicSubmissionsPath } from '../src/server/public-submissions.ts'
import type { ConsoleServer } from '../src/server/server.ts'
import { call, startTestConsole, tempDataDir, waitFor } from './support/console.ts'

// The freshness watch's API (issue 28) over real HTTP on 127.0.0.1, with the real embedded
// Postgres (the sample Roland.txt, whose websites are .example addresses nobody answers for).

let data: Awaited<ReturnType<typeof tempDataDir>>
let server: ConsoleServer

beforeAll(async () => {
  data = await tempDataDir('roland-console-attention-api-')
  server = await startTestConsole({ dataDir: data.dir })
})

afterAll(async () => {
  await server?.close()
  await data?.remove()
})

const api = (pathname: string, options: Parameters<typeof call>[2] = {}) => call(server, pathname, options)

describe('the freshness API', () => {
  let checkId: string

  beforeAll(async () => {
    const started = await api('/api/jobs/check', { method: 'POST' })
    expect(started.status).toBe(202)
    expect(started.json.job).toMatchObject({ kind: 'check', started_by: expect.stringMatching(/^console:/) })
    checkId = started.json.job.id
    await waitFor(async () => {
      const job = (await api(`/api/jobs/${checkId}`)).json.job
      return job.status === 'succeeded' || job.status === 'failed' ? job : undefined
    }, 'the check')
  }, 120_000)

  test('a check is a job like the others, with its phases and result in the history', async () => {
    const { job } = (await api(`/api/jobs/${checkId}`)).json
    expect(job).toMatchObject({ status: 'succeeded', progress: { phase: 'recording findings', done: 1, total: 1 } })
    expect(job.result.checked).toBeGreaterThan(0)
  })

  test('lists the findings with their counts by kind, and says the schedule is off', async () => {
    const { status, json } = await api('/api/findings')
    expect(status).toBe(200)
    expect(json.nextCheckAt).toBeNull()
    expect(json.lastCheck.id).toBe(checkId)
    expect(json.byKind.unverified).toBe(json.findings.filter((f: { kind: string }) => f.kind === 'unverified').length)
    expect(json.byKind.unverified).toBeGreaterThan(0)
  })

  test("Today's recent changes on a fresh install: the first import in one line, never a database role", async () => {
    const { json } = await api('/api/today')
    expect(json.recentChanges).toEqual([
      expect.objectContaining({
        who: null,
        text: 'Imported Roland.txt: 35 businesses added',
        via: 'by the first setup',
        jobId: expect.any(String),
      }),
    ])
    expect(JSON.stringify(json.recentChanges)).not.toMatch(/sql:|service_role/)
  })

  test('dismisses a finding until the evidence changes; refuses a bad or unknown id', async () => {
    const { json } = await api('/api/findings')
    const finding = json.findings.find((f: { kind: string }) => f.kind === 'no-photo')
    expect((await api(`/api/findings/${finding.id}/dismiss`, { method: 'POST' })).status).toBe(200)
    const after = (await api('/api/findings')).json
    expect(after.findings.find((f: { id: string }) => f.id === finding.id)).toMatchObject({
      dismissed_by: 'automation',
    })
    expect(after.byKind['no-photo']).toBe(json.byKind['no-photo'] - 1)
    expect((await api('/api/findings/not-an-id/dismiss', { method: 'POST' })).status).toBe(400)
    const unknown = await api(`/api/findings/${crypto.randomUUID()}/dismiss`, { method: 'POST' })
    expect(unknown.status).toBe(404)
    expect(unknown.json.error).toMatch(/No open finding/)
  })

  test('restores a dismissed finding, once; refuses one that is not dismissed', async () => {
    const { json } = await api('/api/findings')
    const dismissed = json.findings.find((f: { dismissed_at: string | null }) => f.dismissed_at !== null)
    expect(dismissed).toBeDefined()
    expect((await api(`/api/findings/${dismissed.id}/restore`, { method: 'POST' })).status).toBe(200)
    const after = (await api('/api/findings')).json
    expect(after.findings.find((f: { id: string }) => f.id === dismissed.id)).toMatchObject({
      dismissed_at: null,
      dismissed_by: null,
    })
    expect(after.byKind[dismissed.kind]).toBe(json.byKind[dismissed.kind] + 1)
    const again = await api(`/api/findings/${dismissed.id}/restore`, { method: 'POST' })
    expect(again.status).toBe(404)
    expect(again.json.error).toMatch(/No dismissed open finding/)
    expect((await api('/api/findings/not-an-id/restore', { method: 'POST' })).status).toBe(400)
  })

  test('marks a listing verified, audited under the operator, and counts it as an edit to publish', async () => {
    const { json } = await api('/api/findings')
    const unverified = json.findings.find((f: { kind: string }) => f.kind === 'unverified')
    const { status, json: verified } = await api(`/api/businesses/${unverified.business_id}/verify`, { method: 'POST' })
    expect(status).toBe(200)
    expect(verified.business.verified_at).toEqual(expect.any(String))
    const audit = (await api(`/api/audit?table=businesses&row=${unverified.business_id}&limit=1`)).json
    expect(audit.entries[0]).toMatchObject({ actor: 'automation', action: 'update' })
    const today = (await api('/api/today')).json
    expect(today.unpublishedEdits).toBeGreaterThan(0)
    expect(today.recentChanges[0]).toMatchObject({
      who: 'automation',
      text: `changed ${unverified.name}`,
      rowId: unverified.business_id,
      jobId: null,
    })
    expect((await api(`/api/businesses/${crypto.randomUUID()}/verify`, { method: 'POST' })).status).toBe(404)
  })

  test('Today counts the submissions waiting in the Inbox, one more for each visitor’s suggestion', async () => {
    const before = (await api('/api/today')).json.pendingSubmissions
    expect(before).toEqual(expect.any(Number))
    const sent = await api(publicSubmissionsPath, {
      method: 'POST',
      auth: 'none',
      headers: { origin: 'http://127.0.0.1:4321' },
      body: { kind: 'new-business', payload: { name: 'Roland Feed & Seed', category: 'Shopping' } },
    })
    expect(sent.status).toBe(201)
    expect((await api('/api/today')).json.pendingSubmissions).toBe(before + 1)
  })

  test('answers nobody who is not signed in', async () => {
    for (const [method, path] of [
      ['GET', '/api/findings'],
      ['GET', '/api/today'],
      ['POST', '/api/jobs/check'],
    ] as const) {
      expect((await api(path, { method, auth: 'none' })).status).toBe(401)
    }
  })
})
