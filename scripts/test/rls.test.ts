import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type EmbeddedStore } from '../src/store/embedded.ts'
import { freshStore } from './support/fresh-store.ts'
import { activeId, defineRlsProbe, probeSetupSql, type ProbeDatabase } from './support/rls-probe.ts'

// Row-level security and grants, cell by cell (the probe of support/rls-probe.ts), against the
// real migrations in the embedded Postgres; real-postgres.test.ts runs the same probe on a real
// PostgreSQL server.

let store: EmbeddedStore

beforeAll(async () => {
  store = await freshStore()
  await store.db.exec(probeSetupSql)
})

afterAll(async () => {
  await store?.close()
})

/** Runs statements in a transaction as a role with claims, then rolls it back. */
async function rolledBack<T>(
  dbRole: string | null,
  claims: Record<string, string> | null,
  run: (tx: Parameters<Parameters<EmbeddedStore['db']['transaction']>[0]>[0]) => Promise<T>,
): Promise<T> {
  const rollback = new Error('rollback')
  let outcome: T | undefined
  await store.db
    .transaction(async (tx) => {
      if (dbRole) await tx.exec(`set local role ${dbRole}`)
      if (claims) await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claims)])
      outcome = await run(tx)
      throw rollback
    })
    .catch((error) => {
      if (error !== rollback) throw error
    })
  return outcome as T
}

const embedded: ProbeDatabase = {
  attempt: (dbRole, claims, sql) =>
    rolledBack(dbRole, claims, async (tx) => {
      try {
        const result = await tx.query(sql)
        return { rows: result.affectedRows || result.rows.length }
      } catch (error) {
        return { error: (error as Error).message }
      }
    }),
  ask: (dbRole, claims, statements) =>
    rolledBack(dbRole, claims, async (tx) => {
      let row: Record<string, unknown> | undefined
      for (const sql of statements) row = (await tx.query<Record<string, unknown>>(sql)).rows[0]
      return row
    }),
}

defineRlsProbe(() => embedded)

describe('the public catalog', () => {
  test('never includes an inactive business or anything of it', async () => {
    const catalog = await store.loadCatalog()
    expect(catalog.businesses.map((b) => b.slug)).toEqual(['open-shop'])
    const [open] = catalog.businesses
    expect(open!.services.map((s) => s.service_name)).toEqual(['Coffee'])
    expect(open!.images.map((i) => [i.business_id, i.image_url])).toEqual([[activeId, '/files/a.png']])
    expect(open!.hours_detail).toHaveLength(1)
  })
})

describe('the public catalog of thousands of businesses', () => {
  test('comes whole and in list order across the pages it is read in', async () => {
    const big = await freshStore()
    try {
      // 4,500 more businesses (the catalog is read 2,000 at a time), names repeating so that the
      // slug breaks ties; every 7th inactive, every 100th with a service and an hour.
      await big.db.exec(`
        insert into businesses (slug, name, category, address, is_active)
        select 'shop-' || n, 'Shop ' || (n % 1500), 'Shopping & Convenience', n || ' Main St', n % 7 <> 0
        from generate_series(1, 4500) n;
        insert into business_services (business_id, service_name, sort_order)
        select id, 'Service of ' || slug, 0 from businesses where slug ~ '^shop-[0-9]+00$';
        insert into business_hours (business_id, day_of_week, opens_at, closes_at)
        select id, 1, '09:00', '17:00' from businesses where slug ~ '^shop-[0-9]+00$';
      `)
      const { rows } = await big.db.query<{ slug: string }>(
        'select slug from businesses where is_active order by name, slug',
      )
      const catalog = await big.loadCatalog()
      expect(catalog.businesses.map((b) => b.slug)).toEqual(rows.map((row) => row.slug))
      expect(catalog.businesses.length).toBeGreaterThan(3800)
      for (const business of catalog.businesses.filter((b) => /^shop-\d+00$/.test(b.slug))) {
        expect(business.services.map((s) => s.service_name)).toEqual([`Service of ${business.slug}`])
        expect(business.hours_detail).toHaveLength(1)
      }
      expect(catalog.categories.length).toBeGreaterThan(0)
    } finally {
      await big.close()
    }
  })
})
