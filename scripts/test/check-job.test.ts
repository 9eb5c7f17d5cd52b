import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { checkReport, openFindings, runCheck } from '../src/check/job.ts'
import { auditEntries, undoChange } from '../src/content/edit.ts'
import type { EmbeddedStore } from '../src/store/embedded.ts'
import { checkCases, loadCheckCatalog, startCheckSites, type CheckSites } from './check-fixture-sites.ts'
import { freshStore } from './support/fresh-store.ts'

// The check job over a real Postgres (the embedded store) and real fixture websites: how findings
// are kept (resolved, dismissed, counted in a row), what it may write, and what visitors may read.

let sites: CheckSites
let store: EmbeddedStore

beforeAll(async () => {
  sites = await startCheckSites()
})

afterAll(async () => {
  await sites.close()
})

beforeEach(async () => {
  store = await freshStore()
  await loadCheckCatalog(store, checkCases(sites))
  return () => store.close()
})

// 5 s a request: a loaded machine runs timers late, and 1 s made healthy sites look unreachable
// there; the hanging site costs the 5 s.
const check = (slug?: string) => runCheck({ store, slug, allowPrivateNetwork: true, timeoutMs: 5000 })
const setWebsite = (slug: string, website: string) =>
  store.db.query('update businesses set website = $2 where slug = $1', [slug, website])
const findingsOf = async (slug: string) => (await checkReport(store, slug)).findings

/** Every row of the tables a check must not write, as text. */
async function everythingButFindings(): Promise<string> {
  const tables = ['businesses', 'business_images', 'business_services', 'business_hours', 'audit_log', 'operators']
  const rows = await Promise.all(
    tables.map(async (table) => (await store.db.query(`select * from ${table} order by 1`)).rows),
  )
  return JSON.stringify(rows)
}

describe('the check job', () => {
  test('gets through bad input (a hang, a redirect loop, 50 MB, a PDF, an internal address) and writes only its findings', async () => {
    const before = await everythingButFindings()
    const result = await check()
    expect(await everythingButFindings()).toBe(before)
    const kinds = Object.fromEntries(
      result.findings.filter((f) => f.kind.startsWith('website')).map((f) => [f.business, f.kind]),
    )
    expect(kinds).toEqual({
      'broken-server-bank': 'website-error',
      'dead-site-shop': 'website-unreachable',
      'hanging-site-salon': 'website-unreachable',
      'internal-address-realty': 'website-unreachable',
      'loop-site-garage': 'website-error',
      'missing-page-store': 'website-error',
      'moved-away-marina': 'website-moved',
      'parked-bait-shop': 'website-parked',
    })
    const job = await store.jobs.get(result.jobId!)
    expect(job).toMatchObject({
      kind: 'check',
      status: 'succeeded',
      progress: { phase: 'recording findings', done: 1 },
    })
    expect(sites.huge.requests.map((request) => request.method)).toContain('GET')
  })

  test('a finding that no longer holds resolves itself', async () => {
    await check('missing-page-store')
    expect(await findingsOf('missing-page-store')).toHaveLength(1)
    await setWebsite('missing-page-store', sites.healthy.url)
    const result = await check('missing-page-store')
    expect(result.findings).toEqual([])
    expect(result.recorded.resolved).toBe(1)
    const { rows } = await store.db.query<{ resolved: boolean }>(
      `select resolved_at is not null as resolved from listing_findings f join businesses b on b.id = f.business_id
        where b.slug = 'missing-page-store'`,
    )
    expect(rows).toEqual([{ resolved: true }])
  })

  test('a dismissed finding stays dismissed until the evidence changes', async () => {
    await check('parked-bait-shop')
    const [finding] = await openFindings(store, 'parked-bait-shop')
    const outcome = await store.call('dismiss_finding', {
      finding: finding!.id,
      actor: { email: 'ed@example.org', role: 'editor' },
    })
    expect(outcome).toEqual({ status: 'ok' })
    expect(await findingsOf('parked-bait-shop')).toEqual([])
    await check('parked-bait-shop')
    expect(await findingsOf('parked-bait-shop')).toEqual([])
    expect((await openFindings(store, 'parked-bait-shop'))[0]).toMatchObject({
      dismissed_by: 'ed@example.org',
      seen_count: 2,
    })

    await setWebsite('parked-bait-shop', `${sites.parked.url}?lapsed=again`)
    await check('parked-bait-shop')
    expect(await findingsOf('parked-bait-shop')).toEqual([
      { business: 'parked-bait-shop', kind: 'website-parked', detail: expect.stringContaining('?lapsed=again') },
    ])
  })

  test('a website unreachable at 3 checks in a row loses its link in the public catalog, and gets it back', async () => {
    const shown = async () => (await store.loadCatalog()).businesses.find((b) => b.slug === 'dead-site-shop')!
    await check('dead-site-shop')
    await check('dead-site-shop')
    expect((await shown()).website).toBe(sites.dead.url)
    const third = await check('dead-site-shop')
    expect(third.websiteLinksChanged).toBe(1)
    expect(await shown()).toMatchObject({ website: null, website_hidden: true })
    // The listing stays, and the console still lists the finding.
    expect(await openFindings(store, 'dead-site-shop')).toMatchObject([{ kind: 'website-unreachable', seen_count: 3 }])

    await setWebsite('dead-site-shop', sites.healthy.url)
    expect((await check('dead-site-shop')).websiteLinksChanged).toBe(1)
    expect(await shown()).toMatchObject({ website: sites.healthy.url, website_hidden: false })
  })

  test('marking a listing verified is audited, resolves "unverified" at once, and can be undone', async () => {
    await check('stale-hardware')
    const { rows } = await store.db.query<{ id: string }>(
      `insert into operators (email, role) values ('webmaster@example.org', 'editor') returning id`,
    )
    const operatorId = rows[0]!.id
    const business = (await store.listBusinesses()).find((b) => b.slug === 'stale-hardware')!
    const verifiedBefore = (await store.loadCatalog()).businesses.find((b) => b.slug === 'stale-hardware')!.verified_at
    const outcome = await store.call<{ status: string; row: { verified_at: string; verified_by: string } }>(
      'verify_business',
      { business: business.id, actor: { email: 'webmaster@example.org', role: 'editor', id: operatorId } },
    )
    expect(outcome).toMatchObject({ status: 'ok', row: { verified_by: operatorId } })
    expect(await findingsOf('stale-hardware')).toEqual([])
    const [entry] = await auditEntries(store, { table: 'businesses', rowId: business.id })
    expect(entry).toMatchObject({ actor: 'webmaster@example.org', action: 'update' })
    expect((await store.loadCatalog()).businesses.find((b) => b.slug === 'stale-hardware')?.verified_at).toBe(
      outcome.row.verified_at,
    )

    expect(await undoChange(store, entry!.id, { email: 'webmaster@example.org', role: 'editor' })).toMatchObject({
      status: 'ok',
    })
    expect((await store.loadCatalog()).businesses.find((b) => b.slug === 'stale-hardware')?.verified_at).toBe(
      verifiedBefore,
    )
  })
})

describe('what visitors may read', () => {
  test('anon reads no finding and calls none of the check functions', async () => {
    await check('dead-site-shop')
    for (const sql of [
      'select * from listing_findings',
      `select public.open_findings()`,
      `select public.record_check('[]'::jsonb)`,
      `select public.listings_to_check()`,
    ]) {
      await expect(store.asRole('anon', (tx) => tx.query(sql))).rejects.toThrow(/permission denied/)
    }
  })

  test('anon learns whether a website link is hidden, and who verified a listing only as an opaque id', async () => {
    const { rows } = await store.asRole('anon', (tx) =>
      tx.query<{ slug: string; hidden: boolean }>(
        `select b.slug, public.website_hidden(b) as hidden from businesses b where b.slug = 'dead-site-shop'`,
      ),
    )
    expect(rows).toEqual([{ slug: 'dead-site-shop', hidden: false }])
    const { rows: operator } = await store.db.query<{ id: string }>(
      `insert into operators (email, role) values ('webmaster@example.org', 'editor') returning id`,
    )
    await store.db.query(`update businesses set verified_by = $1 where slug = 'healthy-cafe'`, [operator[0]!.id])
    const seen = await store.asRole('anon', (tx) =>
      tx.query<{ verified_by: string }>(`select verified_by from businesses where slug = 'healthy-cafe'`),
    )
    expect(seen.rows).toEqual([{ verified_by: operator[0]!.id }])
  })
})
