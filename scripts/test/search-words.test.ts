import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { auditEntries, contentRows, editRow, type ContentRow } from '../src/content/edit.ts'
import { businessPatchSchema } from '../src/content/schema.ts'
import { runMigration } from '../src/migrate/job.ts'
import { type EmbeddedStore } from '../src/store/embedded.ts'
import { freshStore } from './support/fresh-store.ts'

// A business's search words (issue 49, 20261201000300_search_words.sql): edited and audited like
// every field, kept by a new import, read by the public catalog, and limited to a short list.

const operator = { email: 'coordinator@roland.example', role: 'editor' } as const

const rolandTxt = new TextEncoder().encode(
  'Lakeside Plumbing - Pipes and water heaters\n(501) 555-0300\n19000 Highway 10, Roland, AR 72135\n' +
    'Hours: Daily 7am-7pm\nLicensed plumbing for the valley.',
)

let store: EmbeddedStore
const plumber = async () =>
  (await contentRows(store, 'businesses')).find((b) => b.slug === 'lakeside-plumbing') as ContentRow & {
    search_words: string[]
  }

beforeAll(async () => {
  store = await freshStore()
  await runMigration({ store, source: { bytes: rolandTxt } })
})

afterAll(async () => {
  await store?.close()
})

describe('businesses.search_words', () => {
  test('starts empty, is edited like any field, and the audit trail records who changed it', async () => {
    const row = await plumber()
    expect(row.search_words).toEqual([])
    const outcome = await editRow(
      store,
      'businesses',
      row.id,
      { search_words: ['septic', 'drain cleaning'] },
      null,
      operator,
    )
    expect(outcome.status).toBe('ok')
    expect((await plumber()).search_words).toEqual(['septic', 'drain cleaning'])
    const [last] = await auditEntries(store, { table: 'businesses', rowId: row.id, limit: 1 })
    expect(last?.actor).toContain('coordinator@roland.example')
    expect(last?.before?.['search_words']).toEqual([])
    expect(last?.after?.['search_words']).toEqual(['septic', 'drain cleaning'])
  })

  test('is read by the public catalog, and kept by a new import of Roland.txt', async () => {
    await runMigration({ store, source: { bytes: rolandTxt } })
    expect((await plumber()).search_words).toEqual(['septic', 'drain cleaning'])
    const catalog = await store.loadCatalog()
    expect(catalog.businesses.find((b) => b.slug === 'lakeside-plumbing')?.search_words).toEqual([
      'septic',
      'drain cleaning',
    ])
  })

  test('refuses a long list or an empty word, in SQL and in the shared schema, changing nothing', async () => {
    const row = await plumber()
    const many = Array.from({ length: 21 }, (_, i) => `word ${i}`)
    for (const words of [many, ['ok', ''], ['x'.repeat(41)]]) {
      const outcome = await editRow(store, 'businesses', row.id, { search_words: words }, null, operator)
      expect(outcome).toMatchObject({ status: 'invalid', constraint: 'businesses_search_words_check' })
      expect(businessPatchSchema.safeParse({ search_words: words }).success).toBe(false)
    }
    expect((await plumber()).search_words).toEqual(['septic', 'drain cleaning'])
    expect(businessPatchSchema.safeParse({ search_words: ['septic'] }).success).toBe(true)
  })
})
